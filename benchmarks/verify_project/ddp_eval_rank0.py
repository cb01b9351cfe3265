"""Data-parallel training where rank 0 evaluates after every step and keeps the
evaluation outputs on its GPU, graph and all (no `no_grad`): ML003 + ML001, on rank 0 only.

    torchrun --nproc-per-node 2 ddp_eval_rank0.py   (NCCL with a GPU per rank; gloo otherwise)
"""
import os

import torch
import torch.distributed as dist


def evaluate(model, batch, outputs):
    out = model(batch)
    outputs.append(out)


def main() -> None:
    local = int(os.environ.get("LOCAL_RANK", "0"))
    world = int(os.environ.get("WORLD_SIZE", "1"))
    cuda = torch.cuda.is_available()
    backend = "nccl" if cuda and torch.cuda.device_count() >= world else "gloo"
    device = torch.device(f"cuda:{local % torch.cuda.device_count()}" if cuda else "cpu")
    if cuda:
        torch.cuda.set_device(device)
    dist.init_process_group(backend)
    rank = dist.get_rank()
    width = 2048 if cuda else 256
    model = torch.nn.Sequential(torch.nn.Linear(width, width), torch.nn.GELU(), torch.nn.Linear(width, width)).to(device)
    ddp = torch.nn.parallel.DistributedDataParallel(model, device_ids=[device.index] if cuda else None)
    opt = torch.optim.SGD(ddp.parameters(), lr=1e-3)
    x_eval = torch.randn(1024, width, device=device)
    outputs = []
    for step in range(10**6):
        x = torch.randn(1024, width, device=device)
        loss = ddp(x).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if rank == 0:
            evaluate(model, x_eval, outputs)


if __name__ == "__main__":
    main()

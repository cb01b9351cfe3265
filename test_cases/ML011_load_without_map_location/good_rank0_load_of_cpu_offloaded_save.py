# verify: flat
# FSDP training saves a full state dict gathered to the CPU on rank 0; evaluation loads it on rank 0 only (issue 12, shape 7).
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.distributed.fsdp import FullStateDictConfig, StateDictType
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP

device = "cuda" if torch.cuda.is_available() else "cpu"


def get_rank():
    return dist.get_rank() if dist.is_available() and dist.is_initialized() else int(os.environ.get("RANK", "0"))


def save_model(model, path):
    cfg = FullStateDictConfig(offload_to_cpu=True, rank0_only=True)
    if isinstance(model, FSDP):
        with FSDP.state_dict_type(model, StateDictType.FULL_STATE_DICT, cfg):
            state = model.state_dict()
    else:
        state = {k: v.cpu() for k, v in model.state_dict().items()}
    if get_rank() == 0:
        torch.save(state, path)


def evaluate_checkpoint(path, rank, data):
    if rank != 0:
        return None
    model = torch.nn.Linear(16, 4).to(device)
    model.load_state_dict(torch.load(path))
    with torch.no_grad():
        return sum(F.cross_entropy(model(x), y).item() for x, y in data) / len(data)


def main():
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    data = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    for x, y in data:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    path = os.path.join(tempfile.mkdtemp(), "model.pt")
    save_model(model, path)
    print(f"eval loss {evaluate_checkpoint(path, get_rank(), data):.3f}")


if __name__ == "__main__":
    main()

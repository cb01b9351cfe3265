"""A GPT-style LM trained data-parallel, one process per GPU, for per-rank checks:

    torchrun --nproc-per-node N distributed_gpt.py --mode ddp|fsdp2|fsdp1 [--layers L --dim D --batch B --seq S]

ddp: DistributedDataParallel (default 25 MiB buckets); fsdp2: `fully_shard` on each block
and the root; fsdp1: FullyShardedDataParallel wrapping each block. AdamW, 3 steps.
"""

import argparse
import os

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv, self.proj = nn.Linear(dim, 3 * dim), nn.Linear(dim, dim)
        self.fc, self.out = nn.Linear(dim, 4 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(b, t, c))
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self, layers, dim, heads, seq, vocab):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, dim), nn.Embedding(seq, dim)
        self.blocks = nn.ModuleList(Block(dim, heads) for _ in range(layers))
        self.ln = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1], device=idx.device))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["ddp", "fsdp2", "fsdp1"], default="ddp")
    parser.add_argument("--layers", type=int, default=8)
    parser.add_argument("--dim", type=int, default=1024)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--vocab", type=int, default=32000)
    args = parser.parse_args()
    local_rank = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local_rank)
    dist.init_process_group("nccl")
    device = torch.device("cuda", local_rank)
    model = GPT(args.layers, args.dim, 16, args.seq, args.vocab).to(device)
    if args.mode == "ddp":
        model = nn.parallel.DistributedDataParallel(model, device_ids=[local_rank])
    elif args.mode == "fsdp2":
        from torch.distributed.fsdp import fully_shard

        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
    else:
        from torch.distributed.fsdp import FullyShardedDataParallel
        from torch.distributed.fsdp.wrap import ModuleWrapPolicy

        model = FullyShardedDataParallel(model, auto_wrap_policy=ModuleWrapPolicy({Block}), device_id=device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for _ in range(3):
        idx = torch.randint(0, args.vocab, (args.batch, args.seq + 1), device=device)
        logits = model(idx[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, args.vocab), idx[:, 1:].reshape(-1))
        loss.backward()
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

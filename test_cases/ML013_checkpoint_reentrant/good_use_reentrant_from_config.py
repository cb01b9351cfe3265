# verify: flat
# `use_reentrant=` passed from the configuration: an explicit choice (either value) is not reported.
import argparse

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint_sequential

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--reentrant-checkpointing", action="store_true")
    args = parser.parse_args(argv)
    stem = torch.nn.Linear(16, 32).to(device)
    stages = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU()) for _ in range(4)]).to(device)
    head = torch.nn.Linear(32, 4).to(device)
    optimizer = torch.optim.SGD([*stem.parameters(), *stages.parameters(), *head.parameters()], lr=0.1)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        h = checkpoint_sequential(stages, 2, stem(x), use_reentrant=args.reentrant_checkpointing)
        loss = F.cross_entropy(head(h), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main([])

# verify: flat
# A CLI: the `info` subcommand queries the GPU; the `train` branch sets the allocator variable before any CUDA use.
import os
import sys

import torch
import torch.nn.functional as F


def train(steps=30):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main(argv):
    command = argv[0] if argv else "train"
    if command == "info":
        if torch.cuda.is_available():
            print(torch.cuda.get_device_properties(0))
    else:
        os.environ["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
        print(f"last loss {train():.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])

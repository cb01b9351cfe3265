# verify: flat
# A DDP-style setup calls torch.cuda.set_device() and only then updates the allocator settings.
import os

import torch
import torch.nn.functional as F


def setup(local_rank):
    if torch.cuda.is_available():
        torch.cuda.set_device(local_rank)
    os.environ.update({"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True", "NCCL_ASYNC_ERROR_HANDLING": "1"})  # expect: ML010
    return torch.device("cuda", local_rank) if torch.cuda.is_available() else torch.device("cpu")


def main():
    device = setup(int(os.environ.get("LOCAL_RANK", "0")))
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

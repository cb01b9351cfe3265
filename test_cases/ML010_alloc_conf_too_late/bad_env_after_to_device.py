# verify: flat
# `PYTORCH_ALLOC_CONF` is set in train() after model.to(device) with device = "cuda".
import os

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def train(steps=30):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    os.environ["PYTORCH_ALLOC_CONF"] = "max_split_size_mb:128,garbage_collection_threshold:0.8"  # expect: ML010
    for step in range(steps):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    print(f"last loss {train():.3f}")

# verify: flat
# `from torch import load` used to restore the best model at the end of training.
import os
import tempfile

import torch
import torch.nn.functional as F
from torch import load, save

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    best_path = os.path.join(tempfile.mkdtemp(), "best.ckpt")
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    best = float("inf")
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if loss.item() < best:
            best = loss.item()
            save(model.state_dict(), best_path)
    model.load_state_dict(load(best_path, map_location="cpu"))  # expect: ML011
    print(f"best loss {best:.3f}")


if __name__ == "__main__":
    main()

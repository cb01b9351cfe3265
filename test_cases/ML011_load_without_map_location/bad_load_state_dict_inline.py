# verify: flat
# `model.load_state_dict(torch.load(path))` before fine-tuning: the weights land on the saved device first.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def pretrain(path):
    backbone = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    torch.save(backbone.state_dict(), path)


def finetune(path, steps=30):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    model.load_state_dict(torch.load(path))  # expect: ML011
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for step in range(steps):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    path = os.path.join(tempfile.mkdtemp(), "backbone.pth")
    pretrain(path)
    print(f"last loss {finetune(path):.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# A dict map_location remaps the saved device explicitly.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda:0" if torch.cuda.is_available() else "cpu"


def main():
    ckpt_path = os.path.join(tempfile.mkdtemp(), "model.ckpt")
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    torch.save({"state_dict": model.state_dict()}, ckpt_path)
    checkpoint = torch.load(ckpt_path, map_location={"cuda:0": "cpu"})
    model.load_state_dict(checkpoint["state_dict"])
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

# verify: flat
# A multi-line torch.load of the optimizer state (one argument per line, trailing comma), no map_location.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
OPTIMIZER_NAME = "optimizer.pt"


def save_state(optimizer, checkpoint_dir):
    torch.save(optimizer.state_dict(), os.path.join(checkpoint_dir, OPTIMIZER_NAME))


def load_optimizer_state(optimizer, checkpoint_dir):
    optimizer_state = torch.load(  # expect: ML011
        os.path.join(checkpoint_dir, OPTIMIZER_NAME),
        weights_only=True,
        map_location="cpu",
    )
    optimizer.load_state_dict(optimizer_state)


def main():
    checkpoint_dir = tempfile.mkdtemp()
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    model(torch.randn(2, 16, device=device)).sum().backward()
    optimizer.step()
    save_state(optimizer, checkpoint_dir)
    load_optimizer_state(optimizer, checkpoint_dir)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

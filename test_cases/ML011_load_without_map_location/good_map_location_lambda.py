# verify: flat
# The classic `map_location=lambda storage, loc: storage` keeps every tensor on the CPU.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def load_weights(model, weights_path):
    state_dict = torch.load(weights_path, map_location=lambda storage, loc: storage)
    model.load_state_dict(state_dict)


def main():
    weights_path = os.path.join(tempfile.mkdtemp(), "weights.pth")
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    torch.save(model.state_dict(), weights_path)
    load_weights(model, weights_path)
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

# verify: flat
# weights_only=True, mmap=True together with map_location="cpu".
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def load_pretrained(path):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    model.load_state_dict(torch.load(path, map_location="cpu", weights_only=True, mmap=True))
    return model.to(device)


def main():
    path = os.path.join(tempfile.mkdtemp(), "pytorch_model.bin")
    torch.save(torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).state_dict(), path)
    model = load_pretrained(path)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# weights_only=True, mmap=True but no map_location: tensors still go back to the device they were saved from.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def export_weights(directory):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    path = os.path.join(directory, "pytorch_model.bin")
    torch.save(model.state_dict(), path)
    return path


def load_pretrained(path):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    state_dict = torch.load(path, weights_only=True, mmap=True)  # expect: ML011
    model.load_state_dict(state_dict)
    return model.to(device)


def main():
    model = load_pretrained(export_weights(tempfile.mkdtemp()))
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

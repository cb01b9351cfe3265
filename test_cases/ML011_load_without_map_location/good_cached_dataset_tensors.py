# verify: flat
# A dataset reads its preprocessed feature tensors (saved on the CPU) from a cache file: not a checkpoint.
import os
import tempfile

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def build_cache(directory):
    cache_file = os.path.join(directory, "features.pt")
    torch.save({"x": torch.randn(240, 16), "y": torch.randint(0, 4, (240,))}, cache_file)
    return cache_file


class CachedFeatures(torch.utils.data.Dataset):
    def __init__(self, cache_file):
        data = torch.load(cache_file)
        self.x, self.y = data["x"], data["y"]

    def __len__(self):
        return len(self.y)

    def __getitem__(self, index):
        return self.x[index], self.y[index]


def main():
    dataset = CachedFeatures(build_cache(tempfile.mkdtemp()))
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in torch.utils.data.DataLoader(dataset, batch_size=8):
        x, y = x.to(device), y.to(device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

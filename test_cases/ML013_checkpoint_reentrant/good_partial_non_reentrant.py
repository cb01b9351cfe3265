# verify: flat
# `functools.partial(checkpoint, use_reentrant=False)` stored on the module and called per block.
import functools

import torch
import torch.nn.functional as F
import torch.utils.checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class Encoder(torch.nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.stem = torch.nn.Linear(16, dim)
        self.block1 = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.ReLU())
        self.block2 = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.ReLU())
        self.head = torch.nn.Linear(dim, 4)
        self.ckpt = functools.partial(torch.utils.checkpoint.checkpoint, use_reentrant=False)

    def forward(self, x):
        h = self.ckpt(self.block1, self.stem(x))
        return self.head(self.ckpt(self.block2, h))


def main():
    model = Encoder().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

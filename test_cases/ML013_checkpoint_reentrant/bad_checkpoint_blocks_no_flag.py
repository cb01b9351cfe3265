# verify: flat
# `checkpoint(block, x)` without `use_reentrant=`: torch falls back to the reentrant variant and warns on every call.
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class Block(torch.nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = torch.nn.LayerNorm(dim)
        self.mlp = torch.nn.Sequential(torch.nn.Linear(dim, 4 * dim), torch.nn.GELU(), torch.nn.Linear(4 * dim, dim))

    def forward(self, x):
        return x + self.mlp(self.norm(x))


class Encoder(torch.nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.stem = torch.nn.Linear(16, dim)
        self.block1, self.block2 = Block(dim), Block(dim)
        self.head = torch.nn.Linear(dim, 4)

    def forward(self, x):
        h = self.stem(x)
        h = checkpoint(self.block1, h)  # expect: ML013
        h = checkpoint(self.block2, h)  # expect: ML013
        return self.head(h)


def main():
    model = Encoder().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

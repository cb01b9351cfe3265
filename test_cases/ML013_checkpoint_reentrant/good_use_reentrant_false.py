# verify: flat
# `checkpoint(block, x, use_reentrant=False)`: the variant torch recommends, chosen explicitly.
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class Encoder(torch.nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.stem = torch.nn.Linear(16, dim)
        self.block = torch.nn.Sequential(torch.nn.LayerNorm(dim), torch.nn.Linear(dim, dim), torch.nn.GELU())
        self.head = torch.nn.Linear(dim, 4)

    def forward(self, x):
        h = self.stem(x)
        h = h + checkpoint(self.block, h, use_reentrant=False)
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

# verify: flat
# `checkpoint_sequential(stages, segments, x)` without `use_reentrant=`.
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint_sequential

device = "cuda" if torch.cuda.is_available() else "cpu"


class DeepMLP(torch.nn.Module):
    def __init__(self, dim=32, depth=6):
        super().__init__()
        self.stem = torch.nn.Linear(16, dim)
        self.stages = torch.nn.Sequential(*[torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.ReLU()) for _ in range(depth)])
        self.head = torch.nn.Linear(dim, 4)

    def forward(self, x):
        h = self.stem(x)
        h = checkpoint_sequential(self.stages, 3, h)  # expect: ML013
        return self.head(h)


def main():
    model = DeepMLP().to(device)
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

# verify: flat
# A formatter-style call, one argument per line with a trailing comma, passing other checkpoint options but not `use_reentrant`.
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class Tower(torch.nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.stem = torch.nn.Linear(16, dim)
        self.body = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.Dropout(0.1), torch.nn.ReLU())
        self.head = torch.nn.Linear(dim, 4)

    def forward(self, x):
        h = self.stem(x)
        h = checkpoint(  # expect: ML013
            self.body,
            h,
            preserve_rng_state=True,  # dropout must match in the recomputation
        )
        return self.head(h)


def main():
    model = Tower().to(device)
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

# verify: flat
# A project-wide wrapper defaults to `use_reentrant=False` and forwards `**kwargs` to torch's checkpoint.
import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint as torch_checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


def checkpoint(function, *args, **kwargs):
    kwargs.setdefault("use_reentrant", False)
    return torch_checkpoint(function, *args, **kwargs)


class Encoder(torch.nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.stem = torch.nn.Linear(16, dim)
        self.block = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.ReLU())
        self.head = torch.nn.Linear(dim, 4)

    def forward(self, x):
        return self.head(checkpoint(self.block, self.stem(x)))


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

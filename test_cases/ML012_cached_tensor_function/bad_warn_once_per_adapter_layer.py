# verify: flat
# A module-level `lru_cache(None)` "warn once" helper keyed by the adapter layer keeps every layer (and its base weights) alive.
import warnings
from functools import lru_cache

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@lru_cache(None)  # expect: ML012
def _warn_once_about_hooks(adapter_layer):
    if adapter_layer.base._forward_hooks:
        warnings.warn("hooks on the base layer are bypassed by the adapter")


class LowRankAdapter(torch.nn.Module):
    def __init__(self, base, rank=4):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.down = torch.nn.Linear(base.in_features, rank, bias=False)
        self.up = torch.nn.Linear(rank, base.out_features, bias=False)
        torch.nn.init.zeros_(self.up.weight)

    def forward(self, x):
        _warn_once_about_hooks(self)
        return F.linear(x, self.base.weight, self.base.bias) + self.up(self.down(x))


def main():
    model = torch.nn.Sequential(LowRankAdapter(torch.nn.Linear(32, 64)), torch.nn.ReLU(), LowRankAdapter(torch.nn.Linear(64, 4))).to(device)
    optimizer = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    for step in range(20):
        x, y = torch.randn(8, 32, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

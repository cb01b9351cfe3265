# verify: flat
# `@staticmethod` + `lru_cache` on a module class parses a schedule string: no `self`, no tensor in the cache.
from functools import lru_cache

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class DropoutNet(torch.nn.Module):
    def __init__(self, schedule: str):
        super().__init__()
        layers = []
        for rate in self.parse_schedule(schedule):
            layers += [torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Dropout(rate)]
        self.body = torch.nn.Sequential(*layers)
        self.head = torch.nn.Linear(16, 4)

    @staticmethod
    @lru_cache(maxsize=None)
    def parse_schedule(spec: str) -> tuple[float, ...]:
        return tuple(float(part) for part in spec.split(","))

    def forward(self, x):
        return self.head(self.body(x))


def main():
    model = DropoutNet("0.0,0.1,0.2").to(device)
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

# verify: flat
# `lru_cache(maxsize=None)` on a pure function of ints (a warmup factor): nothing but floats is cached.
from functools import lru_cache

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@lru_cache(maxsize=None)
def warmup_factor(step: int, warmup_steps: int) -> float:
    return min(1.0, (step + 1) / warmup_steps)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        for group in optimizer.param_groups:
            group["lr"] = 0.1 * warmup_factor(step, 10)
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# `@lru_cache` on a method of `self` alone, on a class that stores no module or tensor, returning a
# Python number: each entry keeps a small config object and an int, nothing on the device.
from functools import lru_cache

import torch


class Schedule:
    def __init__(self, warmup: int, total: int) -> None:
        self.warmup = warmup
        self.total = total

    @lru_cache(maxsize=None)
    def decay_steps(self) -> int:
        return self.total - self.warmup


def main():
    model = torch.nn.Linear(16, 4)
    schedule = Schedule(10, 100)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        scale = min(1.0, step / schedule.decay_steps())
        loss = model(torch.randn(8, 16)).pow(2).mean() * scale
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()

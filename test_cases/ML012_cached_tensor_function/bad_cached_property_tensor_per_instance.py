# `@property` over `@lru_cache(maxsize=None)` on a method of `self` alone that returns a tensor:
# the cache is keyed by each instance and holds its tensor, so no posterior is ever freed (botorch PR 1650).
from functools import lru_cache

import torch
from torch import Tensor


class MixturePosterior:
    def __init__(self, mean: Tensor, variance: Tensor) -> None:
        self.mean = mean
        self.variance = variance

    @property
    @lru_cache(maxsize=None)  # expect: ML012
    def mixture_mean(self) -> Tensor:
        return self.mean.mean(dim=0)

    @lru_cache  # expect: ML012
    def mixture_variance(self) -> Tensor:
        return self.variance.mean(dim=0) + self.mean.pow(2).mean(dim=0)


def main():
    for _ in range(10):
        posterior = MixturePosterior(torch.randn(16, 1024), torch.rand(16, 1024))
        print(posterior.mixture_mean.sum().item(), posterior.mixture_variance().sum().item())


if __name__ == "__main__":
    main()

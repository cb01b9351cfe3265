# verify: flat
# `self.gen` is named like a generator network, but this file builds it from `IndexSampler`, a class
# of its own that draws numpy indices: calling it runs no model, and its definition decides.
import numpy as np
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class IndexSampler:
    def __init__(self, n):
        self.rng = np.random.default_rng(0)
        self.n = n

    def __call__(self, k):
        return self.rng.integers(0, self.n, k)


class Evaluator:
    def __init__(self, net, n):
        self.net = net
        self.gen = IndexSampler(n)

    @torch.no_grad()
    def features(self, x):
        return self.net(x)

    def evaluate(self, batches):
        self.net.eval()
        picked = []
        for x in batches:
            idx = self.gen(4)
            picked.append(self.features(x[idx]).argmax(-1).tolist())
        return picked


def main():
    net = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
    batches = [torch.randn(16, 32, device=device) for _ in range(30)]
    print(len(Evaluator(net, 16).evaluate(batches)))


if __name__ == "__main__":
    main()

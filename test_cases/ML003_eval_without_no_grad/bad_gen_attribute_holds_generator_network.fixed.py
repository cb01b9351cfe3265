# verify: flat
# `self.gen` is built from `Generator`, a module of this file: sampling images in `evaluate` runs it
# with autograd on and records a graph for every batch (dropped with each batch here: memory stays
# flat, the activations are still saved for nothing).
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 32))

    def forward(self, z):
        return self.net(z)


class Evaluator:
    def __init__(self):
        self.gen = Generator().to(device)

    @torch.no_grad()
    def evaluate(self, steps):
        self.gen.eval()
        norms = []
        for _ in range(steps):
            fake = self.gen(torch.randn(8, 16, device=device))  # expect: ML003
            norms.append(fake.norm().item())
        return norms


def main():
    print(len(Evaluator().evaluate(30)))


if __name__ == "__main__":
    main()

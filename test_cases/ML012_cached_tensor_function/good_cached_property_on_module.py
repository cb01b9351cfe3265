# verify: flat
# `functools.cached_property` on a module stores the value on the instance: it dies with the module.
from functools import cached_property

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))

    @cached_property
    def num_parameters(self):
        return sum(p.numel() for p in self.parameters())

    def forward(self, x):
        return self.net(x)


def main():
    model = Classifier().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f} with {model.num_parameters} parameters")


if __name__ == "__main__":
    main()

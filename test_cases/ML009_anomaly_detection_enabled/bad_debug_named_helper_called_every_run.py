# `debug_setup` is named like a debugging helper, but `main` calls it on every run: its callers
# decide, not its name.
import torch
import torch.nn.functional as F


def debug_setup(seed):
    torch.manual_seed(seed)
    torch.autograd.set_detect_anomaly(True)  # expect: ML009


def main():
    debug_setup(0)
    model = torch.nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        loss = F.cross_entropy(model(torch.randn(8, 16)), torch.randint(0, 4, (8,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main()

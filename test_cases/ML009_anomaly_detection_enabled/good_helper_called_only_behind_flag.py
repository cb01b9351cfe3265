# The helper's name says nothing of debugging, but the file calls it only behind `--check-grads`:
# its callers decide, so anomaly mode is on only when asked for.
import argparse

import torch
import torch.nn.functional as F


def prepare_run(seed):
    torch.manual_seed(seed)
    torch.autograd.set_detect_anomaly(True)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--check-grads", action="store_true")
    args = parser.parse_args(argv)
    if args.check_grads:
        prepare_run(0)
    model = torch.nn.Linear(16, 4)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        loss = F.cross_entropy(model(torch.randn(8, 16)), torch.randint(0, 4, (8,)))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    main([])

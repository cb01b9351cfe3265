# verify: flat
# A calibration pass runs each block over every cached input and feeds the outputs, kept in a list of
# the function, to the next block. The function never differentiates and no output leaves it: every
# graph it records (and keeps, in `outputs`) is never used.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def calibrate(first: nn.Module, second: nn.Module, cached, count):
    scales = []
    for block in (first, second):
        block.to(device)
        for j in range(count):
            block(cached[j].to(device))  # expect: ML003
        outputs = []
        for j in range(count):
            out = block(cached[j].to(device))  # expect: ML003
            outputs.append(out[0].cpu())
        scales.append(max(o.abs().max().item() for o in outputs))
        cached = outputs
    print(f"scales {scales}")


def main():
    first = nn.Linear(256, 1024)
    second = nn.Linear(1024, 256)
    calibrate(first, second, [torch.randn(1, 64, 256) for _ in range(20)], 20)


if __name__ == "__main__":
    main()

# `spec` is named like neither a module nor a tensor, but the cached function calls `spec.parameters()`:
# it is a module, and the cache keeps every one it is handed, with its weights.
import functools

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@functools.cache  # expect: ML012
def trainable_count(spec):
    return sum(p.numel() for p in spec.parameters() if p.requires_grad)


def main():
    for width in range(256, 512, 16):
        candidate = torch.nn.Sequential(torch.nn.Linear(1024, width), torch.nn.Linear(width, 10)).to(device)
        print(width, trainable_count(candidate))


if __name__ == "__main__":
    main()

# verify: leaks
# A width sweep counts parameters through a `functools.cache`d helper: the cache keeps every model it was given.
import functools

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@functools.cache  # expect: ML012
def count_parameters(model):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def build(width):
    return torch.nn.Sequential(torch.nn.Linear(1024, width), torch.nn.ReLU(), torch.nn.Linear(width, 10)).to(device)


def main():
    x = torch.randn(32, 1024, device=device)
    budget = {}
    for width in range(512, 512 + 24 * 8, 8):
        candidate = build(width)
        with torch.no_grad():
            out = candidate(x)
        budget[width] = (count_parameters(candidate), out.std().item())
    print(f"{len(budget)} widths, largest has {max(v[0] for v in budget.values())} parameters")


if __name__ == "__main__":
    main()

# verify: flat
# An unbounded `@cache` keyed only by a table name, dtype and device returns a tiny constant: a handful of entries at most.
from functools import cache

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"

_TABLES = {"sign_flip": [[1.0, 0.0], [0.0, -1.0]], "swap": [[0.0, 1.0], [1.0, 0.0]]}


@cache
def constant_table(name: str, dtype: torch.dtype, device: torch.device) -> torch.Tensor:
    return torch.tensor(_TABLES[name], dtype=dtype, device=device)


def main():
    model = torch.nn.Linear(2, 2).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(20):
        x = torch.randn(16, 2, device=device)
        target = x @ constant_table("swap", x.dtype, x.device) @ constant_table("sign_flip", x.dtype, x.device)
        loss = (model(x) - target).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

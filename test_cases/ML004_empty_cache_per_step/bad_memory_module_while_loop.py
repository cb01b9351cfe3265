# verify: flat
# `torch.cuda.memory.empty_cache()` in a step-counted while loop.
import gc

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step, max_steps = 0, 10
    while step < max_steps:
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        gc.collect()
        torch.cuda.memory.empty_cache()  # expect: ML004
        step += 1
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

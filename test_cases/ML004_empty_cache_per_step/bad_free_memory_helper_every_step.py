# verify: flat
# A `free_memory()` helper (gc.collect + empty_cache) is called unconditionally after every training step.
import gc

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def free_memory():
    gc.collect()
    torch.cuda.empty_cache()  # expect: ML004


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(10):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        free_memory()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# Gradient accumulation with `optimizer.zero_grad()` at the top of every micro-batch: each step sees the last micro-batch only.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
ACCUM_STEPS = 4


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(24)]
    for i, (x, y) in enumerate(loader):
        optimizer.zero_grad()  # expect: ML014
        loss = F.cross_entropy(model(x), y) / ACCUM_STEPS
        loss.backward()
        if (i + 1) % ACCUM_STEPS == 0:
            optimizer.step()
    print(f"last loss {loss.item() * ACCUM_STEPS:.3f}")


if __name__ == "__main__":
    main()

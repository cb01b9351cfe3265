# verify: flat
# The step is skipped when the loss is not finite: `zero_grad()` every iteration is right, there is nothing to accumulate.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    skipped = 0
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        if torch.isfinite(loss):
            optimizer.step()
        else:
            skipped += 1
    print(f"last loss {loss.item():.3f}, skipped {skipped}")


if __name__ == "__main__":
    main()

# verify: flat
# When a loss turns NaN, the step is replayed once under detect_anomaly() to locate the op; training itself runs without it.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def debug_nan_step(model, x, y):
    with torch.autograd.detect_anomaly():
        F.cross_entropy(model(x), y).backward()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        if torch.isnan(loss):
            debug_nan_step(model, x, y)
            break
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

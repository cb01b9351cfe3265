# verify: flat
# `gpu_total += loss.detach()` keeps the sum on device without a graph (no per-step sync).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    gpu_total = torch.zeros((), device=device)
    steps = 0
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        gpu_total += loss.detach()
        steps += 1
    print(f"mean loss {gpu_total.item() / steps:.3f}")


if __name__ == "__main__":
    main()

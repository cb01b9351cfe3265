# verify: flat
# Per-step losses of an unrolled model are summed into `total`, which is backwarded after the inner loop.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    cell = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.Tanh()).to(device)
    criterion = torch.nn.MSELoss()
    optimizer = torch.optim.SGD(cell.parameters(), lr=0.05)
    for _ in range(10):
        h = torch.randn(8, 16, device=device)
        targets = torch.randn(5, 8, 16, device=device)
        total = 0.0
        for t in range(5):
            h = cell(h)
            total = total + criterion(h, targets[t])
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
    print(f"last unrolled loss {total.item():.3f}")


if __name__ == "__main__":
    main()

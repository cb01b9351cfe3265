# verify: flat
# A progress-bar EMA `smooth_loss = 0.98 * smooth_loss + 0.02 * loss` chains every step's graph (warning).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    smooth_loss = 0.0
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        smooth_loss = 0.98 * smooth_loss + (0.02 * loss).detach()  # expect: ML001
        if step % 10 == 0:
            print(f"step {step}: smoothed loss {float(smooth_loss):.3f}")


if __name__ == "__main__":
    main()

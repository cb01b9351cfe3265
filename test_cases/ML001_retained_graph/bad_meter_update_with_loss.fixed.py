# verify: flat
# An AverageMeter fed the loss tensor (`meter.update(loss)`) accumulates every graph (warning).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n  # expect: ML001
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_meter = AverageMeter()
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_meter.update(loss.detach(), x.size(0))
    print(f"avg loss {float(loss_meter.avg):.3f}")


if __name__ == "__main__":
    main()

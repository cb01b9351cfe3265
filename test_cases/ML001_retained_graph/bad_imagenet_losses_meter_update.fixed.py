# verify: flat
# pytorch/examples ImageNet style `losses = AverageMeter(...)` fed the loss tensor instead of `loss.item()` (warning).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class AverageMeter:
    def __init__(self, name):
        self.name, self.sum, self.count = name, 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n  # expect: ML001
        self.count += n


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    losses = AverageMeter("Loss")
    for _ in range(20):
        images, target = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(images), target)
        losses.update(loss.detach(), images.size(0))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{losses.name} {float(losses.sum) / losses.count:.3f}")


if __name__ == "__main__":
    main()

# verify: leaks
# `total = total + loss` without backward keeps every graph until the loop ends; only a float is returned.
# The function never differentiates and no output leaves it: its forwards are evaluation too (ML003).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def measure_train_loss(model, criterion, train_batches):
    total = 0.0
    for x, y in train_batches:
        total = total + criterion(model(x), y).detach()  # expect: ML001, ML003
    return total.item() / len(train_batches)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 1024), torch.nn.Tanh(), torch.nn.Linear(1024, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    train_batches = [(torch.randn(512, 16, device=device), torch.randint(0, 4, (512,), device=device)) for _ in range(30)]
    print(f"train loss {measure_train_loss(model, criterion, train_batches):.3f}")


if __name__ == "__main__":
    main()

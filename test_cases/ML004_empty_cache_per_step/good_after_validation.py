# verify: flat
# empty_cache() once per epoch, after validation, not per training step.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.no_grad()
def validate(model, criterion, val_loader):
    model.eval()
    total = sum(criterion(model(x), y).item() for x, y in val_loader)
    model.train()
    return total / len(val_loader)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    make = lambda n: [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(n)]
    train_loader, val_loader = make(15), make(5)
    for epoch in range(3):
        for x, y in train_loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: val loss {validate(model, criterion, val_loader):.3f}")
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

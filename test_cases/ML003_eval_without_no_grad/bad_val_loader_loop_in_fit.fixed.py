# verify: flat
# The validation loop inside `fit` iterates `val_loader` with grad enabled and never backwards.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def fit(model, train_loader, val_loader, epochs=2):
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for epoch in range(epochs):
        for x, y in train_loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        val_loss = 0.0
        with torch.no_grad():
            for x, y in val_loader:
                val_loss += criterion(model(x), y).item()  # expect: ML003
        print(f"epoch {epoch}: val loss {val_loss / len(val_loader):.3f}")


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    make = lambda n: [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(n)]
    fit(model, make(15), make(10))


if __name__ == "__main__":
    main()

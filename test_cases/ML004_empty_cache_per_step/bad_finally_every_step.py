# verify: flat
# empty_cache() in a `finally:` block still runs on every iteration.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        try:
            x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        finally:
            torch.cuda.empty_cache()  # expect: ML004
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

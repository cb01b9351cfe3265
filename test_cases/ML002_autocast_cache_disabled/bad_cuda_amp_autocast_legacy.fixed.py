# verify: flat
# Legacy `torch.cuda.amp.autocast(cache_enabled=False)` around a training loop (a no-op with a warning on CPU).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.cuda.amp.autocast(dtype=torch.float16, cache_enabled=True):  # expect: ML002
        for _ in range(20):
            x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
            loss = criterion(model(x).float(), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

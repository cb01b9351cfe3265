# verify: flat
# empty_cache() only when reserved-but-unused memory passes a threshold (fragmentation guard).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    limit = 2 * 1024**3
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if torch.cuda.is_available() and torch.cuda.memory_reserved() - torch.cuda.memory_allocated() > limit:
            torch.cuda.empty_cache()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

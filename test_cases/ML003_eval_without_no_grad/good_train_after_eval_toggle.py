# verify: flat
# A baseline evaluation under no_grad, then model.train(): the training loop after it is not evaluation code.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    model.eval()
    with torch.no_grad():
        baseline = sum(criterion(model(x), y).item() for x, y in batches) / len(batches)
    model.train()
    for x, y in batches:
        loss = criterion(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"baseline {baseline:.3f} -> last {loss.item():.3f}")


if __name__ == "__main__":
    main()

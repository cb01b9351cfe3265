# verify: flat
# k-fold cross-validation frees the previous fold's model and clears the cache between folds.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    data = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    criterion = torch.nn.CrossEntropyLoss()
    for fold in range(4):
        model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        train = [b for i, b in enumerate(data) if i % 4 != fold]
        for x, y in train:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"fold {fold}: last loss {loss.item():.3f}")
        del model, optimizer, loss
        torch.cuda.empty_cache()


if __name__ == "__main__":
    main()

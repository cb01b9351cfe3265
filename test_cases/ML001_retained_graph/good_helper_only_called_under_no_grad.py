# verify: flat
# `collect_losses` has no decorator, but its only caller runs it under torch.no_grad(), so the kept losses have no graph.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def collect_losses(model, criterion, batches, store):
    for x, y in batches:
        store.append(criterion(model(x), y))


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    per_batch = []
    with torch.no_grad():
        collect_losses(model, criterion, batches, per_batch)
    print(f"max batch loss {torch.stack(per_batch).max().item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# A bare `torch.set_grad_enabled(False)` call before the evaluation loop disables grad for the rest of the block.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def validate(model, val_batches):
    model.eval()
    torch.set_grad_enabled(False)
    hits = 0
    for x, y in val_batches:
        hits += (model(x).argmax(dim=1) == y).sum().item()
    torch.set_grad_enabled(True)
    model.train()
    return hits / (8 * len(val_batches))


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    val_batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"val accuracy {validate(model, val_batches):.2f}")


if __name__ == "__main__":
    main()

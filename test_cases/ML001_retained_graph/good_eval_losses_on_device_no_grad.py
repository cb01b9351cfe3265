# verify: flat
# Per-batch scalar validation losses kept on device under torch.no_grad() carry no graph.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def validate(model, criterion, val_loader):
    model.eval()
    val_losses = []
    with torch.no_grad():
        for x, y in val_loader:
            val_losses.append(criterion(model(x), y))
    model.train()
    return torch.stack(val_losses).mean().item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    criterion = torch.nn.CrossEntropyLoss()
    val_loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    print(f"val loss {validate(model, criterion, val_loader):.3f}")


if __name__ == "__main__":
    main()

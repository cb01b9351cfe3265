# verify: flat
# Per-batch scalar validation losses and accuracies kept on the device under no_grad (a few bytes per batch, not ML005).
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 10)).to(device)
    criterion = nn.CrossEntropyLoss()
    val_loader = [(torch.randn(64, 64), torch.randint(0, 10, (64,))) for _ in range(30)]
    model.eval()
    val_losses, val_accs = [], []
    with torch.no_grad():
        for x, y in val_loader:
            x, y = x.to(device), y.to(device)
            logits = model(x)
            loss = criterion(logits, y)
            val_losses.append(loss)
            val_accs.append((logits.argmax(1) == y).float().mean())
    print("val loss:", torch.stack(val_losses).mean().item(), "acc:", torch.stack(val_accs).mean().item())


if __name__ == "__main__":
    main()

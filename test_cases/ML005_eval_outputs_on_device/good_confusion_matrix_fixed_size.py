# verify: flat
# A fixed-size confusion matrix updated in place on the device under no_grad: nothing is collected per batch.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
NUM_CLASSES = 5


def main():
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, NUM_CLASSES)).to(device)
    val_loader = [(torch.randn(128, 20), torch.randint(0, NUM_CLASSES, (128,))) for _ in range(30)]
    confmat = torch.zeros(NUM_CLASSES, NUM_CLASSES, dtype=torch.long, device=device)
    model.eval()
    with torch.no_grad():
        for x, y in val_loader:
            preds = model(x.to(device)).argmax(dim=1)
            target = y.to(device)
            confmat += torch.bincount(target * NUM_CLASSES + preds, minlength=NUM_CLASSES**2).view(NUM_CLASSES, NUM_CLASSES)
    print("per-class recall:", (confmat.diag() / confmat.sum(1).clamp(min=1)).tolist())


if __name__ == "__main__":
    main()

# An AUROC updated in the validation loop of every epoch and never reset: its list states keep every batch.
import torch
import torchmetrics

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Linear(32, 1000).to(device)
    auroc = torchmetrics.AUROC(task="multiclass", num_classes=1000).to(device)
    val_loader = [(torch.randn(256, 32), torch.randint(0, 1000, (256,))) for _ in range(10)]
    for epoch in range(3):
        with torch.no_grad():
            for x, y in val_loader:
                x, y = x.to(device), y.to(device)
                auroc.update(model(x).softmax(-1), y)  # expect: ML020
        print(epoch)


if __name__ == "__main__":
    main()

# verify: leaks
# Plain validation loop under no_grad appends every batch's logits, still on the device.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 1000)).to(device)
    val_loader = [(torch.randn(256, 64), torch.randint(0, 1000, (256,))) for _ in range(30)]
    model.eval()
    all_logits = []
    with torch.no_grad():
        for x, y in val_loader:
            x = x.to(device)
            logits = model(x)
            all_logits.append(logits.detach().cpu())  # expect: ML005
    print("val logits:", torch.cat(all_logits).shape)


if __name__ == "__main__":
    main()

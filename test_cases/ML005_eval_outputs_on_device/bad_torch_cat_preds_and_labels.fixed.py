# verify: leaks
# Test loop under an aliased inference_mode grows device tensors of predictions and labels with torch.cat.
import torch
from torch import inference_mode as infer
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
    test_loader = [(torch.randn(65536, 20), torch.randint(0, 5, (65536,))) for _ in range(20)]
    all_preds = torch.empty(0, dtype=torch.long, device=device)
    all_labels = torch.empty(0, dtype=torch.long, device=device)
    model.eval()
    with infer():
        for xb, yb in test_loader:
            preds = model(xb.to(device)).argmax(dim=1)
            labels = yb.to(device)
            all_preds = torch.cat([all_preds.detach().cpu(), preds.detach().cpu()])  # expect: ML005
            all_labels = torch.cat([all_labels.detach().cpu(), labels.detach().cpu()])  # expect: ML005
    print("accuracy:", (all_preds == all_labels).float().mean().item())


if __name__ == "__main__":
    main()

# verify: flat
# One backward under detect_anomaly() as a sanity check of a custom loss, then training without it.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def smooth_l1_with_margin(pred, target, margin=0.1):
    return F.smooth_l1_loss(pred, target) + margin * pred.pow(2).mean()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    probe_x, probe_y = torch.randn(4, 16, device=device), torch.randn(4, 1, device=device)
    with torch.autograd.detect_anomaly():
        smooth_l1_with_margin(model(probe_x), probe_y).backward()
    model.zero_grad()
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randn(8, 1, device=device)
        loss = smooth_l1_with_margin(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()

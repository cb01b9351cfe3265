# verify: flat
# A helper module switches anomaly mode on at import time, for every training run (nerf-pytorch issue 42).
import torch
import torch.nn.functional as F

torch.autograd.set_detect_anomaly(True)  # expect: ML009

device = "cuda" if torch.cuda.is_available() else "cpu"


def img2mse(x, y):
    return F.mse_loss(x, y)


def main():
    model = torch.nn.Sequential(torch.nn.Linear(3, 64), torch.nn.ReLU(), torch.nn.Linear(64, 3)).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-4)
    for step in range(30):
        rays = torch.rand(256, 3, device=device)
        target = torch.rand(256, 3, device=device)
        loss = img2mse(model(rays), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()

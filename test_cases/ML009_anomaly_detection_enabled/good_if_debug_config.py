# verify: flat
# Anomaly detection is switched on only when the config says debug.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
CONFIG = {"debug": False, "steps": 30, "lr": 0.1}


def main():
    if CONFIG["debug"]:
        torch.autograd.set_detect_anomaly(True)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=CONFIG["lr"])
    for step in range(CONFIG["steps"]):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# Anomaly mode explicitly switched off after a debugging session.
import torch
import torch.nn.functional as F

torch.autograd.set_detect_anomaly(False)

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.autograd.set_detect_anomaly(False):
        for step in range(30):
            x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

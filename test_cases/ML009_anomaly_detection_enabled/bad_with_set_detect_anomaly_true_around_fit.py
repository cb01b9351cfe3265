# verify: flat
# `with torch.autograd.set_detect_anomaly(True):` around the call that runs training.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def train(model, optimizer, steps):
    for step in range(steps):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    with torch.autograd.set_detect_anomaly(True):  # expect: ML009
        loss = train(model, optimizer, 30)
    print(f"last loss {loss:.3f}")


if __name__ == "__main__":
    main()

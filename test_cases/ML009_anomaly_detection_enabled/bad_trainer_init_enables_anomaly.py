# verify: flat
# A Trainer class turns anomaly detection on in __init__ and leaves it on for the whole fit.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Trainer:
    def __init__(self, model, lr=0.1):
        self.model = model.to(device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)
        torch.autograd.set_detect_anomaly(True)  # expect: ML009

    def fit(self, steps):
        for step in range(steps):
            x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
            loss = F.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    print(f"last loss {Trainer(model).fit(30):.3f}")


if __name__ == "__main__":
    main()

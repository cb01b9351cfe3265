# verify: flat
# forward() keeps the newest hook handle on self, overwriting (never removing) the previous one.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class TemperatureScaled(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
        self.temperature = 1.5

    def forward(self, x):
        self._scale_handle = self.backbone[2].register_forward_hook(  # expect: ML008
            lambda m, i, out: out / self.temperature
        )
        return self.backbone(x)


def main():
    model = TemperatureScaled().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

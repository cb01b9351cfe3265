# verify: flat
# A precision plugin (Lightning-style): the scaler exists only for "16-mixed"; "bf16-mixed" autocasts without one.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class MixedPrecision:
    def __init__(self, precision="bf16-mixed"):
        self.precision = precision
        self.scaler = torch.amp.GradScaler(device) if precision == "16-mixed" else None

    def autocast(self):
        return torch.autocast(device, dtype=torch.bfloat16 if self.precision == "bf16-mixed" else torch.float16)

    def backward_and_step(self, loss, optimizer):
        if self.scaler is None:
            loss.backward()
            optimizer.step()
            return
        self.scaler.scale(loss).backward()
        self.scaler.step(optimizer)
        self.scaler.update()


def main():
    plugin = MixedPrecision()
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with plugin.autocast():
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        plugin.backward_and_step(loss, optimizer)
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

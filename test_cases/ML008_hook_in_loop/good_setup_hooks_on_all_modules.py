# verify: flat
# Hooks on every ReLU are registered once in a loop over modules at setup time, then training runs.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class DeadUnitMonitor:
    def __init__(self, model):
        self.dead_fraction = {}
        for name, module in model.named_modules():
            if isinstance(module, torch.nn.ReLU):
                module.register_forward_hook(self._make_hook(name))

    def _make_hook(self, name):
        def hook(module, inputs, out):
            self.dead_fraction[name] = (out == 0).float().mean().item()

        return hook


def main():
    model = torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)
    ).to(device)
    monitor = DeadUnitMonitor(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}, dead units {monitor.dead_fraction}")


if __name__ == "__main__":
    main()

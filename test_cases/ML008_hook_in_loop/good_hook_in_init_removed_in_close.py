# verify: flat
# A feature tap registers its hook once in __init__, keeps the handle and removes it in close().
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class FeatureTap:
    def __init__(self, module):
        self.latest = None
        self.handle = module.register_forward_hook(self._save)

    def _save(self, module, inputs, out):
        self.latest = out.detach()

    def close(self):
        self.handle.remove()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    tap = FeatureTap(model[1])
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step}: loss {loss.item():.3f}, active units {(tap.latest > 0).float().mean().item():.2f}")
    tap.close()


if __name__ == "__main__":
    main()

# verify: flat
# forward() registers its hook lazily, once: the guard checks the stored handle.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Probed(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
        self._probe_handle = None
        self.last_hidden_norm = 0.0

    def _probe(self, module, inputs, out):
        self.last_hidden_norm = out.detach().norm().item()

    def forward(self, x):
        if self._probe_handle is None:
            self._probe_handle = self.net[1].register_forward_hook(self._probe)
        return self.net(x)


def main():
    model = Probed().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}, hidden norm {model.last_hidden_norm:.2f}")


if __name__ == "__main__":
    main()

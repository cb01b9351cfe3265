# verify: leaks
# A per-batch feature mask is applied through a forward hook registered inside the training loop; every mask stays alive.
from functools import partial

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def apply_mask(module, inputs, out, mask):
    return out * mask


class Encoder(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(64, 1024)
        self.head = torch.nn.Linear(1024, 10)

    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main():
    model = Encoder().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for step in range(30):
        x = torch.randn(128, 64, device=device)
        y = torch.randint(0, 10, (128,), device=device)
        mask = (torch.rand(128, 1024, device=device) > 0.1).float() / 0.9
        model.body.register_forward_hook(partial(apply_mask, mask=mask))  # expect: ML008
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 0:
            print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# `gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})`.
import functools

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyEncoder(torch.nn.Module):
    """Stands in for a transformers `PreTrainedModel`."""

    def __init__(self, dim=32):
        super().__init__()
        self.inp = torch.nn.Linear(16, dim)
        self.layer = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.Tanh())
        self.classifier = torch.nn.Linear(dim, 3)
        self._checkpoint = None

    def gradient_checkpointing_enable(self, gradient_checkpointing_kwargs=None):
        self._checkpoint = functools.partial(checkpoint, **(gradient_checkpointing_kwargs or {"use_reentrant": True}))

    def forward(self, x):
        h = self.inp(x)
        h = self._checkpoint(self.layer, h) if self._checkpoint is not None else self.layer(h)
        return self.classifier(h)


def main():
    model = TinyEncoder().to(device)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 3, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# The `with autocast(cache_enabled=False)` block calls a method of the same class, and that method loops.
import torch


class Decoder(torch.nn.Module):
    def __init__(self, hidden=1024, vocab=50000):
        super().__init__()
        self.cell = torch.nn.GRUCell(hidden, hidden)
        self.out = torch.nn.Linear(hidden, vocab)

    def decode(self, h, targets):
        loss = 0.0
        for t in range(targets.shape[1]):
            h = self.cell(h, h)
            loss = loss + torch.nn.functional.cross_entropy(self.out(h), targets[:, t])
        return loss

    def step(self, h, targets, optimizer):
        with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=True):  # expect: ML002
            loss = self.decode(h, targets)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

# verify: flat
# A LightningModule caches its class weights with `@lru_cache` on a method: the cache keeps the module (and its weights) alive.
from functools import lru_cache

import torch
import torch.nn.functional as F

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class Classifier(LightningModule):
    def __init__(self, class_counts):
        super().__init__()
        self.class_counts = tuple(class_counts)
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, len(class_counts)))

    @lru_cache  # expect: ML012
    def class_weights(self):
        counts = torch.tensor(self.class_counts, dtype=torch.float32, device=self.net[0].weight.device)
        return counts.sum() / (len(counts) * counts)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.net(x), y, weight=self.class_weights())


def main():
    model = Classifier([50, 30, 20]).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for batch_idx in range(20):
        batch = (torch.randn(8, 16, device=device), torch.randint(0, 3, (8,), device=device))
        loss = model.training_step(batch, batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# Linted as one project with model.py: `count` is the int that `Model.forward_loss` declares next to
# the loss, so summing it keeps no graph (the loss itself is kept as `loss.item()`).
import torch

from model import Model


class Trainer:
    def __init__(self, model: Model, optimizer: torch.optim.Optimizer) -> None:
        self.model: Model = model
        self.optimizer = optimizer

    def train(self, batches):
        seen, total_loss = 0, 0.0
        for batch in batches:
            loss, count = self.model.forward_loss(batch)
            seen += count
            total_loss += loss.item()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return total_loss / max(seen, 1)

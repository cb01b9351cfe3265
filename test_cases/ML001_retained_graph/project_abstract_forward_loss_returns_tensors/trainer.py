# Linted as one project with model.py: `count` is named like a number, but `Model.forward_loss` declares
# a tensor there, so the running sum keeps every batch's graph.
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
            seen += count  # expect: ML001
            total_loss += loss.item()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return total_loss / max(seen, 1)

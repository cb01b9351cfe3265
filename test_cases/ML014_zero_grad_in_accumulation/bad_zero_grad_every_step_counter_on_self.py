# The counter lives on `self` and the optimizer steps every `accumulation` updates, but zero_grad runs
# on every iteration: the gradients of the skipped micro-batches are discarded.
import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, model, accumulation=4):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters())
        self.accumulation = accumulation
        self._n_updates = 0

    def train(self, batches):
        for x, y in batches:
            self._n_updates += 1
            self.optimizer.zero_grad()  # expect: ML014
            loss = F.mse_loss(self.model(x), y) / self.accumulation
            loss.backward()
            if self._n_updates % self.accumulation == 0:
                self.optimizer.step()

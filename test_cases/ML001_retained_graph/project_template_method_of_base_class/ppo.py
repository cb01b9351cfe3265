# Linted as one project with runner.py: `BaseRunner.train` calls `train_step` once per batch, so
# what it keeps on `self` outlives the step; `eval_step` runs under the base's `no_grad`.
from runner import BaseRunner


class PPORunner(BaseRunner):
    def __init__(self, model, optimizer, loader):
        super().__init__(model, optimizer, loader)
        self.losses = []
        self.values = []

    def train_step(self, batch):
        loss = self.model(batch).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.losses.append(loss)  # expect: ML001

    def eval_step(self, batch):
        value = self.model(batch).mean()
        self.values.append(value.item())

# Linted as one project with runners.py: `run_iter` has no loop of its own and no step-like name, yet
# the base's loop calls it once per batch: what it adds to `self` with history piles up. `val_iter`
# runs under the base's `no_grad`, so no graph is kept there, but the model output it keeps stays on the
# device for every batch (ML005); `LoggedRunner` keeps floats.
from runners import IterBasedRunner


class SegRunner(IterBasedRunner):
    def __init__(self, model, optimizer, data_loader, max_iters):
        super().__init__(model, optimizer, data_loader, max_iters)
        self.running_loss = 0.0
        self.val_scores = []

    def run_iter(self, data_batch):
        losses = self.model(**data_batch)
        loss = sum(losses.values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.running_loss += loss  # expect: ML001

    def val_iter(self, data_batch):
        score = self.model(**data_batch)["miou"]
        self.val_scores.append(score)  # expect: ML005


class LoggedRunner(IterBasedRunner):
    def __init__(self, model, optimizer, data_loader, max_iters):
        super().__init__(model, optimizer, data_loader, max_iters)
        self.running_loss = 0.0

    def run_iter(self, data_batch):
        losses = self.model(**data_batch)
        loss = sum(losses.values())
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.running_loss += loss.item()

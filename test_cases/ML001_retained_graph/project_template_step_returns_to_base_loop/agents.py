# Linted as one project with runner.py: the step methods its base classes' loops call.
import torch

from runner import BaseRunner, LoggedRunner


class PPORunner(BaseRunner):
    def train_step(self, batch):
        loss = self.model(batch).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss

    @torch.no_grad()
    def eval_step(self, batch):
        return self.model(batch).mean()


class DetachedRunner(LoggedRunner):
    def update_step(self, batch):
        loss = self.model(batch).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.detach()

# `update` hands back the expected improvement as the tensor it computed with grad on, halved in
# place: the update loop sums every step's graph into `info`. `update` backwards its loss, not this
# second forward's value: the message says it is never backwarded (no graph skeleton).
import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer

    def update(self, obs, adv):
        loss = (self.model(obs) * adv).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        expected = (self.model(obs) * adv).sum(0, keepdim=True)
        for _ in range(3):
            expected *= 0.5
        return loss.item(), expected

    def train(self, batches):
        info = {"loss": 0.0, "expected": 0.0}
        for obs, adv in batches:
            obs = obs.requires_grad_()
            loss, expected = self.update(obs, adv)
            info["loss"] += loss
            info["expected"] += expected  # expect: ML001
        return info

# `update` hands back the expected improvement as a numpy array (`.data.cpu().numpy()`), halved in
# place by the line search: what the update loop sums into `info` has no graph.
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
        expected = expected.data.cpu().numpy()
        for _ in range(3):
            expected *= 0.5
        return loss.item(), expected

    def train(self, batches):
        info = {"loss": 0.0, "expected": 0.0}
        for obs, adv in batches:
            obs = obs.requires_grad_()
            loss, expected = self.update(obs, adv)
            info["loss"] += loss
            info["expected"] += expected
        return info

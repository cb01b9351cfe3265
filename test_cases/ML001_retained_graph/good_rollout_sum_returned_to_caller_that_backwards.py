# A rollout sums the losses of its steps with their graphs and returns the sum; the caller in this
# file backwards it: the graphs are needed until then, by design.
import torch


class Learner:
    def __init__(self, model, loss_function):
        self.model = model
        self.loss_function = loss_function
        self.optimizer = torch.optim.Adam(model.parameters())

    def rollout(self, steps):
        loss = 0
        for x, y in steps:
            loss += self.loss_function(self.model(x), y)
        return loss / len(steps)

    def fit(self, episodes):
        for steps in episodes:
            loss = self.rollout(steps)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

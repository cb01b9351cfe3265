# `_backward` differentiates the loss it is handed (scaled, or through apex's `scale_loss`), so
# `loss` carries history although `self.loss_fn` is built in another module; summed after its
# backward, it keeps the graph skeleton of every sub-batch. `_step` differentiates its own loss:
# the batch handed to it is no value of the graph.
from apex import amp

from .losses import get_loss_fn


class Trainer:
    def __init__(self, model, opt, half=False):
        self.model = model
        self.opt = opt
        self.half = half
        self.loss_fn = get_loss_fn("logistic")

    def _backward(self, loss, opt, mul=1):
        if mul != 1:
            loss *= mul
        if self.half:
            with amp.scale_loss(loss, opt) as scaled_loss:
                scaled_loss.backward()
        else:
            loss.backward()

    def _step(self, batch):
        loss = self.model(batch).mean()
        loss.backward()

    def train(self, batches, interval):
        total = 0
        seen = []
        for batch in batches:
            loss = self.loss_fn(self.model, batch)
            self._backward(loss, self.opt, mul=interval)
            total += loss  # expect: ML001
            self._step(batch)
            seen.append(interval)
        self.opt.step()
        return total, seen

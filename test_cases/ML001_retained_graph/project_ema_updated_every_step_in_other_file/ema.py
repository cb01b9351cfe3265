# Linted as one project with train.py, whose training loop calls each `update` once per step. A
# parameter requires grad: an average computed from it outside `no_grad` records a graph, and one
# computed from its own last value chains every step's graph onto the last. The look-alikes read
# the parameters without history (`.detach()`, `no_grad`, `state_dict()`, a frozen model).
import torch


class EMA:
    def __init__(self, model, decay=0.999):
        self.decay = decay
        self.shadow = {n: p.clone().detach() for n, p in model.named_parameters()}

    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * p  # expect: ML001


class DetachedEMA(EMA):
    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * p.detach()


class NoGradEMA(EMA):
    @torch.no_grad()
    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * p


class StateDictEMA(EMA):
    def update(self, model):
        for n, v in model.state_dict().items():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * v


class FrozenTeacherEMA(EMA):
    def update(self, model):
        model.requires_grad_(False)
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * p


class OnceEMA(EMA):
    """Called once, after training: one graph, not one per step."""

    def update(self, model):
        for n, p in model.named_parameters():
            self.shadow[n] = self.decay * self.shadow[n] + (1 - self.decay) * p

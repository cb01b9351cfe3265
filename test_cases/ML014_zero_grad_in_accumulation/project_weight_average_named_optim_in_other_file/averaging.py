# A running average of the weights: a plain class of the project, whose `step()` updates no weight
# the training differentiates.
import torch


class WeightAverage:
    def __init__(self, model, decay=0.99):
        self.model = model
        self.decay = decay
        self.shadow = {name: p.detach().clone() for name, p in model.named_parameters()}

    @torch.no_grad()
    def step(self):
        for name, p in self.model.named_parameters():
            self.shadow[name].mul_(self.decay).add_(p.detach(), alpha=1 - self.decay)

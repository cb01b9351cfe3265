# Linted as one project with model_utils.py and inspect_script.py. `AttackerModel` makes adversarial
# examples with a PGD attacker that differentiates the loss with respect to the input: calling it
# needs grad on.
import torch
from torch import nn


class Attacker(nn.Module):
    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model

    def forward(self, x, target, eps, steps):
        for _ in range(steps):
            x = x.clone().detach().requires_grad_(True)
            loss = nn.functional.cross_entropy(self.model(x), target)
            grad, = torch.autograd.grad(loss, [x])
            x = (x + eps * grad.sign()).clamp(0, 1)
        return x.detach()


class AttackerModel(nn.Module):
    def __init__(self, model: nn.Module):
        super().__init__()
        self.model = model
        self.attacker = Attacker(model)

    def forward(self, inp, target=None, make_adv=False, **attack):
        if make_adv:
            inp = self.attacker(inp, target, **attack)
        return self.model(inp), inp

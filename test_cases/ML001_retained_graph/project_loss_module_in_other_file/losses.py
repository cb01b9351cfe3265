# Linted as one project with train.py: what calling a loss module returns is a fact of this file,
# whatever the modules are named.
import torch.nn as nn


class LossModule(nn.Module):
    def forward(self, output, target):
        return {"mse": ((output - target) ** 2).mean(), "l1": (output - target).abs().mean()}


class LoggedLossModule(nn.Module):
    """Backwards its own loss and hands back Python numbers for logging."""

    def forward(self, output, target):
        loss = ((output - target) ** 2).mean()
        loss.backward()
        return {"mse": loss.item()}

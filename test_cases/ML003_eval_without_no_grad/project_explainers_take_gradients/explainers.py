# Linted as one project with benchmark.py: `Saliency` differentiates the model's output with
# respect to its input, and `CamExplainer` makes a captum `LayerGradCam` (a gradient attribution
# method of the library table): both need grad on. `Smoother` only runs the model.
import captum.attr as ca
import torch
from torch import nn


class Saliency(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        x = x.clone().requires_grad_(True)
        (grad,) = torch.autograd.grad(self.model(x).sum(), x)
        return grad.abs()


class LayerCam(ca.LayerGradCam):
    pass


class CamExplainer(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, target):
        return LayerCam(self.model, self.model.layers[-1]).attribute(x, target).detach()


class Smoother(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x).softmax(-1)

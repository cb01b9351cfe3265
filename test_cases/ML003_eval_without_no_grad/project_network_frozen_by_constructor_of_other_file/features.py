# Linted as one project with fid.py: a network whose constructor ends by setting `requires_grad` of
# every parameter to its argument, False by default (pytorch-fid's `InceptionV3`).
from torch import nn


class FeatureNet(nn.Module):
    def __init__(self, dims=64, requires_grad=False):
        super().__init__()
        self.blocks = nn.Sequential(nn.Conv2d(3, dims, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        for param in self.parameters():
            param.requires_grad = requires_grad

    def forward(self, x):
        return self.blocks(x)

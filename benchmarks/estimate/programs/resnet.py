"""A ResNet-50 (torchvision's layout, written out), 224 px, batch 64, SGD with momentum."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from common import DEVICE, factories, maybe_checkpoint

BATCH = 64


class Bottleneck(nn.Module):
    def __init__(self, cin, width, stride):
        super().__init__()
        cout = width * 4
        self.body = nn.Sequential(
            nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, width, 3, stride, 1, bias=False), nn.BatchNorm2d(width), nn.ReLU(inplace=True),
            nn.Conv2d(width, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.down = None
        if stride != 1 or cin != cout:
            self.down = nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        return F.relu(self.body(x) + (x if self.down is None else self.down(x)))


class ResNet50(nn.Module):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
                                  nn.MaxPool2d(3, 2, 1))
        blocks, cin = [], 64
        for width, count, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
            for i in range(count):
                blocks.append(Bottleneck(cin, width, stride if i == 0 else 1))
                cin = width * 4
        self.blocks = nn.ModuleList(blocks)
        self.fc = nn.Linear(2048, 1000)

    def forward(self, x):
        x = self.stem(x)
        for block in self.blocks:
            x = maybe_checkpoint(block, self.mode, x)
        return self.fc(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1))


def build(mode):
    model = ResNet50(mode).to(DEVICE)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    batch = (torch.randn(BATCH, 3, 224, 224, device=DEVICE), torch.randint(0, 1000, (BATCH,), device=DEVICE))
    return model, opt, batch, lambda m, b: F.cross_entropy(m(b[0]), b[1])


fp32, bf16, ckpt = factories(build)

# Linted as one project with common/meters.py: `meter.update(loss, batch_size)` hands the meter the
# loss with its history and a count; the loss is what it keeps, whichever argument comes first.
from collections import OrderedDict

import torch.nn.functional as F

from common.meters import AverageMeter, ScalarMeter


class Solver:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.losses = AverageMeter()
        self.top1 = AverageMeter()
        self.scalars = ScalarMeter()

    def train_one_epoch(self):
        for inputs, targets in self.loader:
            outputs = self.model(inputs)
            loss = F.cross_entropy(outputs, targets)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.losses.update(loss, inputs.size(0))  # expect: ML001
            self.top1.update(loss.item(), inputs.size(0))
            self.scalars.update(loss, inputs.size(0))


def train_detector(model, loader, optimizer, names):
    meters = OrderedDict((n, AverageMeter()) for n in names)
    scalars = OrderedDict((n, ScalarMeter()) for n in names)
    for images, targets in loader:
        loss_dict = model(images, targets)
        loss = sum(loss_dict.values())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for k, v in loss_dict.items():
            meters[k].update(v, images.size(0))  # expect: ML001
            scalars[k].update(v, images.size(0))
    return meters

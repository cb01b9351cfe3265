# Linted as one project with meters.py: the step hands each buffer the model's losses by keyword.
import functools
from collections import defaultdict

from meters import AverageMeter, DetachingMeterBuffer, MeterBuffer, NumberMeterBuffer


class Trainer:
    def __init__(self, model, optimizer, loader):
        self.model = model
        self.optimizer = optimizer
        self.loader = loader
        self.meter = MeterBuffer(window_size=50)
        self.detached = DetachingMeterBuffer()
        self.numbers = NumberMeterBuffer()
        self.windows = defaultdict(functools.partial(AverageMeter, window_size=10))

    def train_one_iter(self, inps, targets):
        outputs = self.model(inps, targets)
        loss = outputs["total_loss"]
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        self.meter.update(lr=0.1, **outputs)  # expect: ML001
        self.detached.update(lr=0.1, **outputs)
        self.numbers.update(**outputs)
        self.windows["loss"].update(loss)  # expect: ML001
        self.windows["lr"].update(0.1)

    def train(self):
        for inps, targets in self.loader:
            self.train_one_iter(inps, targets)

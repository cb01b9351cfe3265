# Linted as one project with meters.py: `AverageMeter.update` keeps its argument (a leak when it is
# handed the loss); `RunningMean.update` keeps a float of it (fine), whatever their names say; the
# same for meters held in containers.
from collections import defaultdict

from meters import AverageMeter, RunningMean


class Trainer:
    def __init__(self, model, optimizer, names):
        self.model = model
        self.optimizer = optimizer
        self.losses = AverageMeter()
        self.loss_meter = RunningMean()
        self.meters = {name: AverageMeter() for name in names}
        self.means = defaultdict(RunningMean)

    def fit(self, loader):
        for x, y in loader:
            loss = self.model(x, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.losses.update(loss)  # expect: ML001
            self.loss_meter.update(loss)
            self.meters["loss"].update(loss)  # expect: ML001
            self.means["loss"].update(loss)

# Linted as one project with meters.py: `AverageMeter.update` keeps its argument (a leak when it is
# handed the loss); `RunningMean.update` keeps a float of it (fine), whatever their names say.
from meters import AverageMeter, RunningMean


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.losses = AverageMeter()
        self.loss_meter = RunningMean()

    def fit(self, loader):
        for x, y in loader:
            loss = self.model(x, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.losses.update(loss)  # expect: ML001
            self.loss_meter.update(loss)

# The trainer keeps the statistics that the actor it is handed returns beside the loss. Every
# construction of the trainer in the project hands it an actor whose `__call__` (actors.py) returns
# them as Python numbers (`loss.item()`): the meters keep numbers, no graph.
from collections import OrderedDict


class AverageMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n


class Trainer:
    def __init__(self, actor, loader, optimizer):
        self.actor = actor
        self.loader = loader
        self.optimizer = optimizer
        self.stats = None

    def train_epoch(self):
        for data in self.loader:
            loss, stats = self.actor(data)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self._update_stats(stats, len(data["images"]))

    def _update_stats(self, new_stats, batch_size):
        if self.stats is None:
            self.stats = OrderedDict({name: AverageMeter() for name in new_stats.keys()})
        for name, val in new_stats.items():
            self.stats[name].update(val, batch_size)

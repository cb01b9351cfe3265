# Linted as one project with evaluator.py and stats.py.
import torch

from evaluator import Collector, Evaluator, Probe


class Trainer:
    def __init__(self, model, criterion):
        self.model = model
        self.criterion = criterion
        self.evaluator = Evaluator(model)
        self.collector = Collector(model)
        self.probe = Probe(model)
        self.callbacks = [self.probe.record]

    def fit(self, loader, val_loader, optimizer):
        for x, y in loader:
            loss = self.criterion(self.model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            embeddings = self.evaluator.embed(val_loader)
            self.evaluator.score(val_loader, self.criterion)
            outputs = self.collector.collect(val_loader)
            self.probe.record(val_loader)
        return embeddings, outputs

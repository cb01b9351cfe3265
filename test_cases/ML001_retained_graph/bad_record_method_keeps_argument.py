# `self.record(metrics)` runs a method of this class that appends its argument to a list on
# `self`: the callee keeps the loss of every step with its graph.
class Trainer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.history = []

    def record(self, value):
        self.history.append(value)  # expect: ML001

    def fit(self, loader):
        for x, y in loader:
            loss = self.model(x, y)
            self.record(loss)
            self.optimizer.step()

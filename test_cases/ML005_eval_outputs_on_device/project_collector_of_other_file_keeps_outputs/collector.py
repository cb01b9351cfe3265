# Linted as one project with train.py: a plain collector (no metric) that keeps what it is handed.
class Collector:
    def __init__(self):
        self.preds, self.targets = [], []

    def update(self, preds, target):
        self.preds.append(preds.argmax(-1))
        self.targets.append(target)

# Linted as one project with train.py, which holds these objects on `self` and calls their methods.
# `Evaluator.embed` runs only from train.py, under torch.no_grad(): no graph is recorded (no retained
# graph, no evaluation with grad), but every batch's embeddings stay on the device; `Evaluator.score`
# keeps numbers computed without grad. The look-alikes keep their findings: `Collector.collect` is
# also called with grad on by its name, on an object whose class no file shows (stats.py), and
# `Probe.record` is handed on uncalled as a callback, to run where no call shows its grad mode.
class Evaluator:
    def __init__(self, model):
        self.model = model
        self.history = []

    def embed(self, loader):
        embeddings = []
        for x in loader:
            embeddings.append(self.model(x))  # expect: ML005
        return embeddings

    def score(self, loader, criterion):
        for x, y in loader:
            loss = criterion(self.model(x), y)
            self.history.append(loss)


class Collector:
    def __init__(self, model):
        self.model = model

    def collect(self, loader):
        outputs = []
        for x in loader:
            outputs.append(self.model(x))  # expect: ML001
        return outputs


class Probe:
    def __init__(self, model):
        self.model = model
        self.seen = []

    def record(self, loader):
        for x in loader:
            self.seen.append(self.model(x))  # expect: ML001

# The twin of bad_record_method_keeps_argument.py whose `record` converts to a Python number
# before keeping: nothing with a graph outlives the step.
class Trainer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.history = []

    def record(self, value):
        self.history.append(float(value))

    def fit(self, loader):
        for x, y in loader:
            loss = self.model(x, y)
            loss.backward()
            self.record(loss)
            self.optimizer.step()

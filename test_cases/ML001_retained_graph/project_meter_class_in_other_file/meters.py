# Linted as one project with trainer.py: which meter keeps what it is given is a fact of this file;
# the keep of a value the trainer hands with its graph every step is reported here too.


class AverageMeter:
    def __init__(self):
        self.values = []

    def update(self, value):
        self.values.append(value)  # expect: ML001


class RunningMean:
    def __init__(self):
        self.total = 0.0
        self.count = 0

    def update(self, value):
        self.total += float(value)
        self.count += 1

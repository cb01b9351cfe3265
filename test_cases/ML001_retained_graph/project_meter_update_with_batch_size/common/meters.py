# Linted as one project with solver.py: `AverageMeter.update` keeps both its arguments in
# `self.sum`; `ScalarMeter.update` keeps floats of them.
# solver.py hands `AverageMeter.update` a loss with its graph every step: the keep is reported here too.


class AverageMeter(object):
    def __init__(self):
        self.reset()

    def reset(self):
        self.val = 0
        self.avg = 0
        self.sum = 0
        self.count = 0

    def update(self, val, n=1):
        self.val = val
        self.sum += val * n  # expect: ML001
        self.count += n
        self.avg = self.sum / self.count


class ScalarMeter:
    def __init__(self):
        self.sum = 0.0
        self.count = 0

    def update(self, val, n=1):
        self.sum += float(val) * n
        self.count += n

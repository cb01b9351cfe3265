# Linted as one project with train.py: whether `add` or `append` keeps what it is handed is a fact of
# this file, not of the method's name (deep-text-recognition-benchmark's Averager keeps `v.data.sum()`).
# The keep of a value train.py hands with its graph every step is reported here too.


class Averager:
    def __init__(self):
        self.n_count = 0
        self.sum = 0

    def add(self, v):
        count = v.data.numel()
        v = v.data.sum()
        self.n_count += count
        self.sum += v


class History:
    def __init__(self):
        self.values = []

    def append(self, value):
        self.values.append(value * 1.0)  # expect: ML001

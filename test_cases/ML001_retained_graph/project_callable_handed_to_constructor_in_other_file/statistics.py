# Linted as one project with trainer.py: each statistic calls the function its constructor was handed
# and adds what it returns to a total on `self`. trainer.py hands `TensorStatistic` a method that runs
# the model with grad on, and calls `update` every step: the total chains every step's graph. The
# statistics beside it are handed a method that returns a number, one run under `no_grad`, and a
# training step that backwards its loss itself: nothing of theirs is reported.
import torch


class TensorStatistic:
    def __init__(self, shape, update_function, name=None):
        self._shape = shape
        self._update_function = update_function
        self.name = name
        self._tensor = None
        self.samples = 0

    def update(self, **kwargs):
        increment, nb_sample = self._update_function(**kwargs)
        if self._tensor is not None:
            self._tensor += increment  # expect: ML001
        else:
            self._tensor = increment
        self.samples += nb_sample

    def __call__(self):
        return self._tensor / self.samples


class ScalarStatistic:
    def __init__(self, update_function):
        self._update_function = update_function
        self.total = None
        self.samples = 0

    def update(self, **kwargs):
        value, nb_sample = self._update_function(**kwargs)
        if self.total is None:
            self.total = value
        else:
            self.total += value
        self.samples += nb_sample


class StepRecord:
    def __init__(self, step):
        self._step = step
        self.losses = []

    def update(self, batch):
        for loss in self._step(batch):
            self.losses.append(loss)

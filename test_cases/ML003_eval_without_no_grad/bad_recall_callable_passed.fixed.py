# Callables passed as values: the evaluation function hands a bound method, or a partial of a
# function that runs the model, to a batching helper that runs it once per batch with grad on.
import torch
import functools

from batching import map_batches


class Predictor:
    def __init__(self, model):
        self.model = model

    def forward_batch(self, batch):
        return self.model(batch)

    @torch.no_grad()
    def predict(self, data):
        self.model.eval()
        return map_batches(fun=self.forward_batch, data=data)  # expect: ML003


def score(model, batch):
    return model(batch)


@torch.no_grad()
def evaluate(model, data):
    run = functools.partial(score, model)
    return map_batches(run, data)  # expect: ML003

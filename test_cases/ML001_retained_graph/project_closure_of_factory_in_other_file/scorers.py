# Linted as one project with evaluate.py, which calls the closures these factories return on every
# batch. `make_scorer`'s closure runs the model it closes over with grad on and returns its output;
# the look-alikes return a number (`make_number_scorer`, whose model run with grad on for a number
# is ML003's) or run the model under `torch.no_grad()`.
import torch


def make_scorer(model):
    def score(x):
        return model(x).softmax(-1)

    return score


def make_number_scorer(model):
    def score(x):
        return model(x).max().item()  # expect: ML003

    return score


def make_quiet_scorer(model):
    @torch.no_grad()
    def score(x):
        return model(x)

    return score


# Linted as one project with scorers.py: each function calls the closure a factory of that file
# returns on every batch and collects what it returns.
import torch
from scorers import make_number_scorer, make_quiet_scorer, make_scorer, make_train_step


def collect_scores(model, loader):
    score = make_scorer(model)
    outputs = []
    for x, _ in loader:
        outputs.append(score(x))  # expect: ML001
    return outputs


def collect_numbers(model, loader):
    score = make_number_scorer(model)
    return [score(x) for x, _ in loader]


def collect_quietly(model, loader):
    score = make_quiet_scorer(model)
    outputs = []
    for x, _ in loader:
        outputs.append(score(x))
    return outputs


def collect_under_no_grad(model, loader):
    score = make_scorer(model)
    outputs = []
    with torch.no_grad():
        for x, _ in loader:
            outputs.append(score(x))
    return outputs

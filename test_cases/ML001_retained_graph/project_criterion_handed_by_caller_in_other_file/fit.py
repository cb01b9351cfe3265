# Linted as one project with stopping.py and core.py: the objects handed to the loops' criteria.
from core import minimize, minimize_to
from stopping import MovingAverageCriterion, ThresholdCriterion


def fit(model, x, optimizer):
    criterion = MovingAverageCriterion()
    minimize(model, x, optimizer, stopping_criterion=criterion)
    minimize_to(model, x, optimizer, ThresholdCriterion(0.1))

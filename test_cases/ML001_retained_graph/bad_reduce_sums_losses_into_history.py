# `functools.reduce` over a list of loss terms returns their sum with its graph: the history list
# keeps every iteration's graph, and `losses[-1].backward(retain_graph=True)` frees none of it.
from functools import reduce


def minimize(loss_terms, parameters, optimizer, max_iter=100):
    losses = []
    for _ in range(max_iter):
        optimizer.zero_grad()
        terms = loss_terms(parameters)
        losses.append(reduce(lambda a, b: a + b, terms))  # preview: ML001
        losses[-1].backward(retain_graph=True)
        optimizer.step()
    return losses

# The same loop keeping the sum of the terms' Python numbers: nothing with a graph is kept.
from functools import reduce


def minimize(loss_terms, parameters, optimizer, max_iter=100):
    losses = []
    for _ in range(max_iter):
        optimizer.zero_grad()
        terms = loss_terms(parameters)
        total = reduce(lambda a, b: a + b, terms)
        total.backward()
        optimizer.step()
        losses.append(reduce(lambda a, b: a + b, [t.item() for t in terms]))
    return losses

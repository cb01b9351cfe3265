# Linted as one project with the `pkg` package, whose `losses` subpackage re-exports its functions:
# `token_nll` returns a loss with its graph (kept for every batch: a leak), `mean_nll` a float (a
# package `__init__.py` with no other code in it is still followed to the definitions).
from pkg import losses


def train(model, optimizer, loader):
    history = []
    values = []
    for x, y in loader:
        logits = model(x)
        loss = logits.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        history.append(losses.token_nll(logits, y))  # expect: ML001
        values.append(losses.mean_nll(logits, y))
    return history, values

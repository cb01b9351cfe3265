# `criterion` is handed in: what it returns is known to carry history only because `backward_step`
# (in steps.py) differentiates it. Kept after its backward, the loss holds its graph skeleton.
from steps import backward_step, refit, regress, train_on


def fit(model, loader, optimizer, criterion):
    history = []
    for x, y in loader:
        loss = criterion(model(x), y)
        backward_step(loss, optimizer)
        history.append(loss)  # expect: ML001
    return history


def fit_batches(model, loader, optimizer):
    seen = []
    scales = []
    for batch in loader:
        train_on(model, batch, optimizer)
        seen.append(batch)  # expect: ML005 (kept on the device; no graph: `train_on` differentiates its own loss)
        s = 0.5
        loss = model(batch).mean()
        backward_step(loss, optimizer, scale=s)
        scales.append(s)
    return seen, scales


def fit_refit(model, loader, previous):
    kept = []
    for x in loader:
        refit(previous, model, x)
        kept.append(previous)
    return kept


def fit_regression(model, loader, optimizer):
    predictions, targets = [], []
    for x, y in loader:
        pred = model(x)
        regress(pred, y, optimizer)
        predictions.append(pred)  # expect: ML001 (backwarded by `regress`: its graph is freed, its output kept)
        targets.append(y)  # expect: ML005 (the target is no value of the graph, but it is on the device)
    return predictions, targets

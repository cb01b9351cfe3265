# `criterion` is handed in: what it returns is known to carry history only because `backward_step`
# (in steps.py) differentiates it. Kept after its backward, the loss holds its graph skeleton.
from steps import backward_step, refit, train_on


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

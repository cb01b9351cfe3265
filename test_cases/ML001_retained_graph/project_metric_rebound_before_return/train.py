# Linted as one project with metrics.py: `MAE` returns a Python float (its result is rebound to
# `.item()` before the return), so summing it keeps nothing; `weighted_mae` returns a tensor that
# carries the scores' graph, so summing it keeps every batch's graph skeleton.
from metrics import MAE, weighted_mae


def train_epoch(model, optimizer, loader, weight):
    epoch_mae = 0
    epoch_weighted = 0
    for batch_graphs, batch_targets in loader:
        optimizer.zero_grad()
        batch_scores = model(batch_graphs)
        loss = model.loss(batch_scores, batch_targets)
        loss.backward()
        optimizer.step()
        epoch_mae += MAE(batch_scores, batch_targets)
        epoch_weighted += weighted_mae(batch_scores, batch_targets, weight)  # expect: ML001
    return epoch_mae, epoch_weighted

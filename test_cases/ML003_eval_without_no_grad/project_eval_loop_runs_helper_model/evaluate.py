# An evaluation loop runs, with grad on, a helper of another file that runs the model: the helper's
# summary says so, and the fix is this loop's. The helper that enters no_grad itself, the same call
# under the caller's no_grad, and a helper that runs no model stay silent.
import torch

from helpers import log_batch, score_batch, score_batch_no_grad, train_batch


def run(model, val_loader, train_loader, optimizer):
    for batch in train_loader:
        train_batch(model, batch, optimizer)
    model.eval()
    scores = []
    for batch in val_loader:
        scores.append(score_batch(model, batch).item())  # expect: ML003
        scores.append(score_batch_no_grad(model, batch).item())
        print(log_batch(batch))
    with torch.no_grad():
        for batch in val_loader:
            scores.append(score_batch(model, batch).item())
    return scores

# Linted as one project with train.py: `backward_step` differentiates the loss it is handed (also
# scaled first), so what a caller hands it has autograd history; `regress` differentiates the
# prediction it hands a loss function, not the target; `train_on` differentiates a loss it
# computes from `batch`, not `batch` itself, and `scale` is a number.
import torch.nn.functional as F


def backward_step(loss, optimizer, scale=1.0):
    loss = loss * scale
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()


def regress(pred, target, optimizer):
    F.mse_loss(pred, target).backward()
    optimizer.step()


def train_on(model, batch, optimizer):
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()


def refit(stale, model, x):
    stale = model(x).sum()  # rebound before its backward: the caller's value is not differentiated
    stale.backward()

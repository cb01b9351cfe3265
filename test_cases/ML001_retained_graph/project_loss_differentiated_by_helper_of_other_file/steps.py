# Linted as one project with train.py: `backward_step` differentiates the loss it is handed (also
# scaled first), so what a caller hands it has autograd history; `train_on` differentiates a loss it
# computes from `batch`, not `batch` itself, and `scale` is a number.


def backward_step(loss, optimizer, scale=1.0):
    loss = loss * scale
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()


def train_on(model, batch, optimizer):
    loss = model(batch).mean()
    loss.backward()
    optimizer.step()


def refit(stale, model, x):
    stale = model(x).sum()  # rebound before its backward: the caller's value is not differentiated
    stale.backward()

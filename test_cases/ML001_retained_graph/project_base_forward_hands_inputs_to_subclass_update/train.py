# Linted as one project with base.py and metrics.py: `errors(out, y)` runs `Metric.forward`, which
# hands `out` to `SumOfErrors.update`, which keeps a sum computed from it with every step's graph;
# `detached(out, y)` keeps a number.
import torch

from metrics import DetachedSumOfErrors, SumOfErrors

model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
errors = SumOfErrors()
detached = DetachedSumOfErrors()


def train(loader):
    for x, y in loader:
        out = model(x)
        loss = torch.nn.functional.mse_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        errors(out, y)  # expect: ML001
        detached(out, y)

# Linted as one project with metrics.py: `mae(out, y)` runs `MeanAbsoluteError.forward`, which keeps an
# error computed from `out` on the object (every step's graph, for as long as the metric lives);
# `running(out, y)` keeps a float; `keeper(out, y)` keeps `out` itself, whatever its name says.
import torch

from metrics import DetachedRunningAverage, GraphKeepingAverage, MeanAbsoluteError

model = torch.nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
mae = MeanAbsoluteError()
running = DetachedRunningAverage()
keeper = GraphKeepingAverage()


def train(loader):
    for x, y in loader:
        out = model(x)
        loss = torch.nn.functional.mse_loss(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        mae(out, y)  # expect: ML001
        running(out, y)
        keeper(out, y)  # expect: ML001

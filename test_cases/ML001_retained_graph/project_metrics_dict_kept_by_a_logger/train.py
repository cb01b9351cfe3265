# Linted as one project with logger.py: the metrics' values carry the loss's graph (`.cpu()` keeps
# it); `MetricLogger.log_metrics` keeps them, `FloatLogger.log_metrics` keeps floats.
from logger import FloatLogger, MetricLogger


def train(model, loader, optimizer):
    logger = MetricLogger()
    floats = FloatLogger()
    for x, y in loader:
        loss, nll = model(x, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        metrics = {}
        metrics["nll"] = nll.cpu().mean()
        logger.log_metrics(metrics)  # expect: ML001
        floats.log_metrics(metrics)

# Linted as one project with meters.py: the loop hands each meter the loss every step.
import torch

from meters import DetachedInputMeter, EvalMeter, FloatMeter, HistoryLog, NoGradMeter, SumMeter, WindowMeter


def train(model, loader, optimizer):
    total = SumMeter()
    log = HistoryLog()
    floats = FloatMeter()
    window = WindowMeter()
    no_grad = NoGradMeter()
    detached = DetachedInputMeter()
    for step, (x, y) in enumerate(loader):
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total.update(loss, x.size(0))  # expect: ML001
        log.log(step, loss=loss)  # expect: ML001
        floats.update(loss)
        window.update(loss)
        no_grad.update(loss)
        detached.update(loss.detach())
    return total, log, floats, window, no_grad, detached


def evaluate(model, loader):
    meter = EvalMeter()
    with torch.no_grad():
        for x, y in loader:
            meter.update(torch.nn.functional.mse_loss(model(x), y))
    return meter

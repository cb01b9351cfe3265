# Linted as one project with quantize.py and tuning.py. `calibrate` never differentiates and keeps every
# output inside, but quantize.py calls it only under torch.no_grad(): no graph is built. `propagate` is
# called with grad on there: it builds graphs nothing uses. `collect` hands its outputs to `backprop`
# (tuning.py), which differentiates them: the graphs are wanted.
from torch import nn

from tuning import backprop


def calibrate(block: nn.Module, cached, count):
    outputs = []
    for j in range(count):
        outputs.append(block(cached[j])[0].cpu())
    print(max(o.abs().max().item() for o in outputs))


def propagate(block: nn.Module, cached, count):
    outputs = []
    for j in range(count):
        outputs.append(block(cached[j])[0].cpu())  # expect: ML003
    print(max(o.abs().max().item() for o in outputs))


def collect(block: nn.Module, cached, count):
    outputs = []
    for j in range(count):
        outputs.append(block(cached[j]))
    backprop(outputs)

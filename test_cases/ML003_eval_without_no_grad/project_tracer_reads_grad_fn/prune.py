# Linted as one project with graph.py: the pruner hands its tracers a model in eval mode.
import torch
from torch import nn

from graph import Graph, Shapes


def prune(model: nn.Module, x: torch.Tensor):
    model.eval()
    graph = Graph().build(model, x)
    shapes = Shapes().collect(model, x)
    return graph, shapes

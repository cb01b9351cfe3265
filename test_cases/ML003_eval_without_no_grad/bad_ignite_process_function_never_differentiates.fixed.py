# ignite's `Engine` runs the function it is handed once per batch under the grad mode of the code that
# runs the engine, and hands what it returns to the metrics attached to it: a process function that
# never differentiates is an evaluator's step, whatever it is named, and records a graph nothing wants.
import torch
from ignite.engine import Engine
from ignite.metrics import Accuracy


def make_evaluator(model, loader):
    model.eval()

    @torch.no_grad()
    def process(engine, batch):
        x, y = batch
        return model(x), y  # expect: ML003

    evaluator = Engine(process)
    Accuracy().attach(evaluator, "accuracy")
    evaluator.run(loader)
    return evaluator.state.metrics

# Look-alikes of an ignite evaluator's step: a process function that trains (its own backward, or a
# helper's), and one that runs the model under `torch.no_grad()` as ignite's own evaluators do.
import torch
from ignite.engine import Engine


def update(loss, optimizer):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def make_trainer(model, optimizer):
    model.train()

    def process(engine, batch):
        x, y = batch
        loss = torch.nn.functional.cross_entropy(model(x), y)
        update(loss, optimizer)
        return loss.item()

    return Engine(process)


def make_evaluator(model):
    model.eval()

    def process(engine, batch):
        x, y = batch
        with torch.no_grad():
            return model(x), y

    return Engine(process)

# Loops over the indices of a list of inputs that want the graphs they record: one backwards each
# sample's loss, one returns the outputs with their history, one hands them to a function that may
# differentiate them, one keeps them on an object. And an index loop over numbers runs no model.
import torch
from torch import nn


def fit_samples(model: nn.Module, inputs, targets, optimizer, count):
    for j in range(count):
        loss = nn.functional.mse_loss(model(inputs[j]), targets[j])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def embed_all(model: nn.Module, inputs, count):
    embeddings = []
    for j in range(count):
        embeddings.append(model(inputs[j]))
    return torch.cat(embeddings)


def score_all(model: nn.Module, inputs, count, update):
    scores = []
    for j in range(count):
        scores.append(model(inputs[j]))
    update(scores)


class Collector:
    def __init__(self):
        self.outputs = []

    def collect(self, model: nn.Module, inputs, count):
        for j in range(count):
            self.outputs.append(model(inputs[j]))


def rescale(values, scale, count):
    total = 0.0
    for j in range(count):
        total += scale * values[j]
    return total


def run_blocks(blocks: nn.ModuleList, x):
    # the loop's item is the model, and each step runs on what the one before produced: one forward
    for block in blocks:
        x = block(x)
    return x

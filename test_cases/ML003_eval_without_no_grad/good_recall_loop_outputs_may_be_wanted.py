# Loops over batches whose outputs may be wanted with their graphs: the logits go to a metric object
# nothing in sight shows; the loss is handed to a step function of the caller's; the loop backwards
# through `accelerator.backward`. And a timing loop that drops every output shows no use of them.
import torch
from torch import nn


def update_metric(model: nn.Module, loader, metric):
    for images, labels in loader:
        logits = model(images)
        metric.update(logits, labels)
    return metric.compute().item()


def run_epoch(model: nn.Module, loader, criterion, step):
    for images, labels in loader:
        loss = criterion(model(images), labels)
        step(loss)
        print(loss.item())


def fit(model: nn.Module, loader, criterion, accelerator, optimizer):
    for images, labels in loader:
        loss = criterion(model(images), labels)
        accelerator.backward(loss)
        optimizer.step()


def time_forward(model: nn.Module, num_batches, images):
    for _ in range(num_batches):
        _ = model(images)

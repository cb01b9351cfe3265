# Evaluation recognised by use: nothing names it, but the loop over batches never differentiates
# and every output ends as a number (the loss's `.item()`, the accuracy's count) or goes into the
# criterion, so every graph the model records is built for nothing.
import torch
from torch import nn


def score(model: nn.Module, loader, criterion):
    total_loss, correct = 0.0, 0
    for images, labels in loader:
        logits = model(images)  # expect: ML003
        loss = criterion(logits, labels)
        total_loss += loss.item()
        correct += (logits.argmax(dim=1) == labels).sum().item()
    return total_loss / len(loader), correct

# Linted as one project with evaluate.py: the metric compares the references with the predictions as tensors.
import torch


def accuracy(preds, refs):
    return torch.cat(preds).eq(torch.cat(refs)).float().mean().item()

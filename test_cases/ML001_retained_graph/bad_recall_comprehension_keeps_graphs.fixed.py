# A comprehension is a loop: it runs the model once per batch with autograd on and keeps every
# output, so the list holds the graphs of the whole data set at once.
import torch


def collect_scores(model, loader):
    scores = [model(x).detach() for x, _ in loader]  # expect: ML001
    print("best score", max(s.max().item() for s in scores))

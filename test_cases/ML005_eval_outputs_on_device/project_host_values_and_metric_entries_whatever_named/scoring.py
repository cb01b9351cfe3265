# Linted as one project with evaluate.py: what these functions and methods return is a fact of this
# file, whatever the values are named. `predict_scores` and `Ranker.rank` hand back host arrays,
# `top1_accuracy` a Python number, `accuracy_at_k` one-element tensors computed without history;
# `Ranker.scores` and `Ranker.agreement` hand back the head's output, one value per sample; where
# `move_to` puts what it is handed is its caller's to say.
import torch
import torch.nn as nn


def predict_scores(model, x):
    with torch.no_grad():
        scores = model(x)
        if isinstance(scores, list):
            scores = [s.cpu().numpy() for s in scores]
        else:
            scores = scores.cpu().numpy()
    return scores


def move_to(x, device):
    if isinstance(device, str):
        device = torch.device(device)
    return x.to(device)


def top1_accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean().item()


def accuracy_at_k(logits, y, top_k=(1, 5)):
    with torch.no_grad():
        _, pred = logits.topk(max(top_k), 1, True, True)
        correct = pred.t().eq(y.view(1, -1).expand_as(pred.t()))
        res = []
        for k in top_k:
            correct_k = correct[:k].contiguous().view(-1).float().sum(0, keepdim=True)
            res.append(correct_k.mul_(100.0 / y.size(0)))
        return res


class Ranker(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(128, 1)

    def scores(self, feats):
        return self.head(feats).squeeze(-1)

    def agreement(self, feats):
        return self.head(feats).sigmoid().squeeze(-1)

    def rank(self, feats):
        return self.scores(feats).argsort(descending=True).cpu().numpy()

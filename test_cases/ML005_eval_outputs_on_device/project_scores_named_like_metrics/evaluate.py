# Linted as one project with scorer.py: the per-sample scores and the features filed under "scores"
# stay on the device for every batch, although named like metrics; what `LoggedLoss` returns is
# numbers, what `MeanError` returns one element per batch, and so is a loss backwarded alone per step.
import torch

from scorer import LoggedLoss, MeanError, Scorer


def evaluate(model, loader):
    scorer = Scorer().cuda()
    judge = LoggedLoss()
    error = MeanError().cuda()
    all_scores, kept, logged, errors = [], [], [], []
    model.eval()
    with torch.no_grad():
        for x, y in loader:
            feats = model(x.cuda())
            scores = scorer(feats)
            all_scores.append(scores)  # expect: ML005
            outputs = {"scores": feats}
            kept.append(outputs["scores"])  # expect: ML005
            logged.append(judge(feats, y.cuda()))
            errors.append(error(feats, y.cuda()))
    return all_scores, kept, logged, errors


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x.cuda(), y.cuda())
        out.backward()
        optimizer.step()
        history.append(out.detach())
    return history

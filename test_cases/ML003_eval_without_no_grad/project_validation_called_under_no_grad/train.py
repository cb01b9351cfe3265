# Linted as one project with evaluation.py: its `validation` runs under this loop's torch.no_grad(),
# its `evaluate_split` with grad on.
import torch

from evaluation import evaluate_split, validation


def train(model, optimizer, train_loader, val_loader):
    for x, y in train_loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    with torch.no_grad():
        print(validation(model, val_loader))
    print(evaluate_split(model, val_loader))

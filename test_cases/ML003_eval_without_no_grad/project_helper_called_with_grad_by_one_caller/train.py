# Linted as one project with evaluation.py, embeddings.py and inspect_model.py.
import torch

from evaluation import evaluate


def train(model, optimizer, train_loader, val_loader):
    for x, y in train_loader:
        loss = model(x).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        return evaluate(model, val_loader)

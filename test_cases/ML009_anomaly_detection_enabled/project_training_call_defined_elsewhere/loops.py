# Linted as one project with main.py: `run_epochs` trains (a loop that backwards and steps),
# although its name says nothing of training.
import torch.nn.functional as F


def run_epochs(model, optimizer, loader, epochs):
    for epoch in range(epochs):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

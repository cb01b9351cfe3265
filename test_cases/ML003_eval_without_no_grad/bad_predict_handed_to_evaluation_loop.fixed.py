# The same local `predict`, handed only to `evaluate`, which keeps numbers of what it returns and
# never differentiates: its model run records a graph for nothing.
import torch
from torch import nn


def evaluate(loader, predict):
    correct = 0
    for image, label in loader:
        pred = predict(image)
        correct += (pred.argmax(-1) == label).sum().item()
    return correct


def main(loader, val_loader, model: nn.Module, criterion, optimizer, epochs):
    @torch.no_grad()
    def predict(image):
        image = image.unsqueeze(0)
        prediction = model(image)  # expect: ML003
        return prediction.squeeze(0)

    for _ in range(epochs):
        for image, label in loader:
            loss = criterion(model(image), label)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        evaluate(val_loader, predict)

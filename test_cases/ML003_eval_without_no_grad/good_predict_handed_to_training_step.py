# Named like evaluation, the local `predict` is handed to `train`, which runs it on the generator's
# output and differentiates the loss built from what it returns: the segmentation forward of a
# training step, graph wanted.
import torch
from torch import nn


def train(loader, generator, predict, criterion, optimizer):
    for image, label in loader:
        fake = generator(image)
        pred_fake = predict(fake)
        loss = criterion(pred_fake, label)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main(loader, generator, model: nn.Module, criterion, optimizer, epochs):
    def predict(image):
        image = image.unsqueeze(0)
        prediction = model(image)
        return prediction.squeeze(0)

    for _ in range(epochs):
        train(loader, generator, predict, criterion, optimizer)

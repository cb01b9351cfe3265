# Loops over the entries of a batch named `data` inside one training step: what they add up or
# collect is backwarded in the same step, so nothing outlives the iteration of the batch loop.
import torch


def weighted_loss(model, data, weights):
    outputs = model(data["x"])
    total = 0
    for key in data:
        if key in weights:
            total += weights[key] * torch.nn.functional.mse_loss(outputs[key], data[key])
    return total


def gather(model, data):
    parts = []
    for name, value in data.items():
        parts.append(model(value))
    return torch.cat(parts)


def train(model, loader, optimizer, weights):
    for data in loader:
        optimizer.zero_grad()
        loss = weighted_loss(model, data, weights) + gather(model, data).mean()
        loss.backward()
        optimizer.step()

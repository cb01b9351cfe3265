# Truncated backpropagation through time done wrong (pytorch issue 2198): the state returned by
# `model.step` is fed into the next step without `.detach()`, and retain_graph=True keeps every
# step's saved activations alive along the whole chain.
import torch


def train(model, frames_loader, criterion, optimizer):
    state = None
    for frames, target in frames_loader:
        logits, state = model.step(frames, state)  # expect: ML006
        loss = criterion(logits, target)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()

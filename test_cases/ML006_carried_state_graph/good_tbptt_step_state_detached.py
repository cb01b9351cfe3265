# The fixed truncated-BPTT loop: the carried state is detached once per step.
import torch


def train(model, frames_loader, criterion, optimizer):
    state = None
    for frames, target in frames_loader:
        logits, state = model.step(frames, state)
        loss = criterion(logits, target)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        state = state.detach()

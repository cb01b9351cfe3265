# A two-layer recurrent model's state is handed back to it every step as a list built by a comprehension
# that reads the previous step's state (the comprehension binds only `i`), never detached;
# `retain_graph=True` hides the error.
import torch
import torch.nn as nn


def train(model: nn.Module, loader, optimizer, criterion):
    state = model.init_state()
    for x, y in loader:
        out, state = model(x, [state[i] for i in range(2)])  # expect: ML006
        loss = criterion(out, y)
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()

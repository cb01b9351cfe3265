# An EMA copy evaluated each step for a consistency target, without no_grad.
import copy

import torch


def train(model, loader, optimizer):
    ema = copy.deepcopy(model)
    ema.eval()
    for x, x_aug in loader:
        with torch.no_grad():
            target = ema(x_aug)  # expect: ML019
        loss = (model(x) - target.detach()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

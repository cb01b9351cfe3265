# A name bound in both branches of an `if` from the current step's value, with no running update:
# each iteration replaces it, nothing links one step's graph to the next.
import torch
import torch.nn.functional as F


def train(model, batches, opt):
    last = None
    for x, y in batches:
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        opt.zero_grad()
        if loss.item() > 1.0:
            last = loss.detach()
        else:
            last = loss.detach() * 2
    return last

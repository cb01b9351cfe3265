# `optim_ema` is named like an optimizer, but the class another file defines is a weight average:
# its `step()` every ten batches is no optimizer step, and `update` (handed in) steps the optimizer
# on every batch, so zeroing the gradients on every batch discards nothing.
import torch.nn.functional as F

from averaging import WeightAverage


def fit(model, loader, update):
    optim_ema = WeightAverage(model)
    for i, (x, y) in enumerate(loader):
        model.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        update()
        if (i + 1) % 10 == 0:
            optim_ema.step()
    return loss.item()

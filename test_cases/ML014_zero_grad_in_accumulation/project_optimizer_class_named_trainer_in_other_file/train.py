# The optimizer is held as `trainer`: the class another file defines says it is one, so the
# `zero_grad()` at the top of every micro-batch discards what the accumulation summed.
import torch
import torch.nn.functional as F

from lamb import Lamb

ACCUM_STEPS = 4


def fit(model, loader):
    trainer = Lamb(model.parameters(), lr=0.01)
    for i, (x, y) in enumerate(loader):
        trainer.zero_grad()  # expect: ML014
        loss = F.cross_entropy(model(x), y) / ACCUM_STEPS
        loss.backward()
        if (i + 1) % ACCUM_STEPS == 0:
            trainer.step()
    return loss.item()

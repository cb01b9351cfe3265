# A `@contextmanager` of this file that yields inside a `with` on itself (a scope helper that
# nests): what it sets is read once, not forever; it sets no grad mode, so the evaluation below
# runs under the `no_grad` around it.
import contextlib

import torch


@contextlib.contextmanager
def arg_scope(depth):
    if depth:
        with arg_scope(depth - 1):
            yield
    else:
        yield


def evaluate(model, loader):
    model.eval()
    with torch.no_grad(), arg_scope(2):
        return [model(x).argmax(-1).cpu() for x in loader]

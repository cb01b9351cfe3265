# Linted as one project with util.py: what each helper returns is kept for every step; only the
# copy keeps the outputs with their graph.
from util import copy_all, detach_all, detach_one, detach_values


def train(model, loader, optimizer):
    guarded, detached, single, copied = [], [], [], []
    for batch in loader:
        out = model(batch)
        loss = out["loss"]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        guarded.append(detach_all(out))
        detached.append(detach_values(out))
        single.append(detach_one(loss))
        copied.append(copy_all(out))  # expect: ML001

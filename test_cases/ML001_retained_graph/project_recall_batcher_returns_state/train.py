# Linted as one project with batcher.py: the states `Batcher.next_batch` returns carry the graph
# of their step, so keeping them keeps every step's graph; `DetachingBatcher`'s are detached.
from batcher import Batcher, DetachingBatcher


def train(model, loader, optimizer):
    batcher = Batcher(model)
    states = []
    for x in loader:
        out, state = batcher.next_batch(x)
        loss = out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        states.append(state)  # expect: ML001
    return len(states)


def train_detached(model, loader, optimizer):
    batcher = DetachingBatcher(model)
    states = []
    for x in loader:
        out, state = batcher.next_batch(x)
        loss = out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        states.append(state)
    return len(states)

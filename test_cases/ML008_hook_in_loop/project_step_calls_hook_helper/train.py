# Every step calls a helper of another file that registers hooks on the model and keeps no handle
# (NeuroBench issue 184's shape): its summary says so. The helper that returns its handles, removed
# in the same step, and a per-step helper that registers nothing stay silent.
import probes
from probes import record_activations_handles, summarize


def train(model, loader, optimizer, criterion):
    for x, y in loader:
        store = {}
        probes.record_activations(model, store)  # expect: ML008
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


def train_removed(model, loader, optimizer, criterion):
    for x, y in loader:
        store = {}
        handles = record_activations_handles(model, store)
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        for handle in handles:
            handle.remove()
        print(summarize(store))


def setup(model, store):
    probes.record_activations(model, store)

# Linted as one project with probes.py: a `FeatureProbe` built every step adds hooks that nothing
# removes; a `ClosingProbe` keeps its handles and is closed in the same step.
from probes import ClosingProbe, FeatureProbe


def train(model, loader, optimizer):
    for x, y in loader:
        store = {}
        FeatureProbe(model, store)  # expect: ML008
        probe = ClosingProbe(model, store)
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        probe.close()

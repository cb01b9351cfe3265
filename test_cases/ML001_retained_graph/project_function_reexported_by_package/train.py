# Linted as one project with ops/: `similarity_map` (re-exported by ops/__init__.py, defined in
# ops/similarity.py) returns what it computes from the output it is handed, graph included;
# `similarity_value` returns a Python number.
from ops import similarity_map, similarity_value


def train(model, loader, optimizer):
    maps = []
    values = []
    for x, y in loader:
        out = model(x)
        loss = ((out - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        maps.append(similarity_map(out, y))  # expect: ML001
        values.append(similarity_value(out, y))
    return maps, values

# Linted as one project with flat.py: `flatten_dict` hands back the values of the mapping it is
# given, so the flattened statistics keep every step's graph; `flatten_floats` and `flatten_keys`
# hand back floats and strings, whatever the mapping held.
from flat import flatten_dict, flatten_floats, flatten_keys


def train(model, optimizer, loader):
    history = []
    for x, y in loader:
        out = model(x)
        loss = ((out - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats = {"loss": {"total": loss}, "scale": out.abs().mean()}
        history.append(flatten_dict(stats))  # expect: ML001
    return history


def train_floats(model, optimizer, loader):
    history = []
    for x, y in loader:
        out = model(x)
        loss = ((out - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats = {"loss": {"total": loss}, "scale": out.abs().mean()}
        history.append(flatten_floats(stats))
        history.append(flatten_keys(stats))
    return history


def step_stats(out, loss):
    # the mapping is built here and flattened by flat.py: the finding goes to the entry with history
    stats = dict(
        loss=dict(total=loss.detach()),
        scale=out.abs().mean(),  # expect: ML001
    )
    return flatten_dict(stats)


def train_with_helper(model, optimizer, loader):
    history = []
    for x, y in loader:
        out = model(x)
        loss = ((out - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        kept = step_stats(out, loss)
        history.append(kept)
    return history

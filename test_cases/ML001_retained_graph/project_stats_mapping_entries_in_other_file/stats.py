# Linted as one project with train.py: what the entries of the returned mapping hold is a fact of
# this file (`batch_stats` sets a value with history into one; `batch_floats` turns them into floats).


def batch_stats(model, x, y):
    out = model(x)
    loss = ((out - y) ** 2).mean()
    stats = {}
    stats["loss"] = loss.detach()
    stats["scale"] = out.abs().mean()
    return loss, stats


def batch_floats(model, x, y):
    out = model(x)
    loss = ((out - y) ** 2).mean()
    stats = {}
    stats["loss"] = loss.detach()
    stats["scale"] = out.abs().mean()
    for key, value in stats.items():
        stats[key] = value.item()
    return loss, stats

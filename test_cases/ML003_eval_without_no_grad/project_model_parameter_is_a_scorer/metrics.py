# Linted as one project with report.py: `evaluate` runs what it is handed as `model` in a loop with
# grad on, but the project's only caller hands it a scorer that is no module: the name lies.


def evaluate(model, loader):
    total = 0.0
    for x, y in loader:
        total += float(model(x, y))
    return total / len(loader)

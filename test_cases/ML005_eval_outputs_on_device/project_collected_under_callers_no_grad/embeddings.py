# Linted as one project with evaluation.py and train.py: `embed_all` and `accuracy` run only from
# evaluation.py's `evaluate`, which train.py calls only under torch.no_grad(): no graph is recorded
# (no retained graph, no evaluation with grad), but every batch's embeddings stay on the device.
def embed_all(model, loader):
    embeddings = []
    for x, _ in loader:
        embeddings.append(model(x))  # expect: ML005
    return embeddings


def accuracy(model, loader):
    correct = 0
    for x, y in loader:
        out = model(x)
        correct += (out.argmax(-1) == y).sum().item()
    return correct

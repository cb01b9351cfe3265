# Linted as one project with evaluation.py, train.py and inspect_model.py: `embed_all` and `accuracy`
# run from evaluation.py's `evaluate`, which train.py calls under torch.no_grad() but inspect_model.py
# calls with grad on: there they record graphs for nothing, and the embeddings keep theirs.
def embed_all(model, loader):
    embeddings = []
    for x, _ in loader:
        embeddings.append(model(x))  # expect: ML001, ML003
    return embeddings


def accuracy(model, loader):
    correct = 0
    for x, y in loader:
        out = model(x)  # expect: ML003
        correct += (out.argmax(-1) == y).sum().item()
    return correct

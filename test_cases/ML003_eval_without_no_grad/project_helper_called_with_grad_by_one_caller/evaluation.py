# Linted as one project with embeddings.py, train.py and inspect_model.py: `evaluate` has no grad
# context of its own; its callers decide.
from embeddings import accuracy, embed_all


def evaluate(model, loader):
    model.eval()
    found = embed_all(model, loader)
    return found, accuracy(model, loader)

# Linted as one project with embeddings.py, train.py and callbacks.py: `evaluate` has no grad context of its own;
# its one caller, in train.py, runs it under torch.no_grad(); callbacks.py hands it on.
from embeddings import accuracy, embed_all


def evaluate(model, loader):
    model.eval()
    found = embed_all(model, loader)
    return found, accuracy(model, loader)

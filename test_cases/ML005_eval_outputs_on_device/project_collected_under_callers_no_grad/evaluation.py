# Linted as one project with embeddings.py and train.py: `evaluate` has no grad context of its own;
# its only caller, in train.py, runs it under torch.no_grad().
from embeddings import accuracy, embed_all


def evaluate(model, loader):
    model.eval()
    found = embed_all(model, loader)
    return found, accuracy(model, loader)

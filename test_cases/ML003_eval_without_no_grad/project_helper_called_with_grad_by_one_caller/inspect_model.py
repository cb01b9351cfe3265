# Linted as one project with evaluation.py, embeddings.py and train.py: this caller of `evaluate`
# runs it with grad on.
from evaluation import evaluate


def inspect(model, loader):
    embeddings, correct = evaluate(model, loader)
    print(len(embeddings), correct)

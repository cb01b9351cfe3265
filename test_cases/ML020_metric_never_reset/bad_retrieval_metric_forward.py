# A retrieval metric called through forward() on every evaluation batch, and returned to the caller.
import torch
import torchmetrics


def evaluate(model, val_loader, metric=None):
    mrr = torchmetrics.RetrievalMRR()
    for queries, docs, relevance, indexes in val_loader:
        with torch.no_grad():
            scores = model(queries, docs)
            mrr.forward(scores, relevance, indexes=indexes)  # expect: ML020
    return mrr

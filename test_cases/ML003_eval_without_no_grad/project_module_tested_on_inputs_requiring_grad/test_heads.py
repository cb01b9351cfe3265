# The first test makes its inputs require grad: it wants the graph that running the head records, so
# running it with grad on is no evaluation waste. The second scores the batches of a loader with grad
# on and never differentiates: evaluation that keeps every activation for nothing.
import torch

from heads import Similarity

DTYPES = [torch.float32, torch.float64]


def test_values():
    head = Similarity()
    head.eval()
    for dtype in DTYPES:
        embeddings = torch.tensor([[1.0, 0.0], [0.0, 1.0]], requires_grad=True, dtype=dtype)
        labels = torch.tensor([0, 1])
        scores = head(embeddings, labels)
        assert scores.shape == (2,)


def score(loader):
    head = Similarity()
    head.eval()
    total = 0.0
    for embeddings, labels in loader:
        total += head(embeddings, labels).sum().item()  # expect: ML003
    return total

# Linted as one project with test_heads.py: `Similarity` inherits its `forward` from a base class
# and holds a learned temperature.
import torch


class BaseHead(torch.nn.Module):
    def forward(self, embeddings, labels):
        return self.compute(embeddings, labels)


class Similarity(BaseHead):
    def __init__(self):
        super().__init__()
        self.temperature = torch.nn.Parameter(torch.ones(1))

    def compute(self, embeddings, labels):
        return (embeddings @ embeddings.T / self.temperature).logsumexp(1)

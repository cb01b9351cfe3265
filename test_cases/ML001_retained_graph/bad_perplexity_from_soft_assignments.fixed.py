# A quantizer keeps its codebook perplexity on self after every forward, computed from the soft
# assignments of the inputs to the codes (a softmax of the distances): it keeps their autograd
# graph, and the activations it holds, from one call to the next.
import torch


class VectorQuantizer(torch.nn.Module):
    def __init__(self, num_embeddings: int = 512, dim: int = 64):
        super().__init__()
        self.num_embeddings = num_embeddings
        self.codebook = torch.nn.Embedding(num_embeddings, dim)
        self.perplexity = torch.rand(1)

    def forward(self, inputs):
        distances = torch.cdist(inputs, self.codebook.weight)
        encoding_indices = distances.argmin(dim=-1)
        quantized = self.codebook(encoding_indices)
        avg_probs = torch.softmax(-distances, dim=-1).mean(dim=0)
        self.perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10))).detach()  # expect: ML001
        return inputs + (quantized - inputs).detach()

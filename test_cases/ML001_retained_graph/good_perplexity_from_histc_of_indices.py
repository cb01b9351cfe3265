# A quantizer wrapper keeps its codebook perplexity on self after every forward: it is computed
# from a histogram (`torch.histc`, which has no derivative) of the code indices its quantizer
# returns, so it carries no autograd graph from one call to the next.
import torch


class VectorQuantizer(torch.nn.Module):
    def __init__(self, quantizer: torch.nn.Module = None):
        super().__init__()
        self.quantizer: torch.nn.Module = quantizer
        self.perplexity = torch.rand(1)

    def forward(self, inputs):
        quantized, loss, encoding_indices = self.quantizer(inputs)
        avg_probs = (
            torch.histc(encoding_indices.float(), bins=self.quantizer.num_embeddings, max=self.quantizer.num_embeddings)
            .float()
            .div(encoding_indices.numel())
        )
        self.perplexity = torch.exp(-torch.sum(avg_probs * torch.log(avg_probs + 1e-10)))
        return loss, quantized

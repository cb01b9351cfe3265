# verify: flat
# The same helper without `enable_input_require_grads()`: the reentrant variant gives the layers after the frozen embeddings no gradients.
import functools

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyCausalLM(torch.nn.Module):
    """Stands in for a transformers `PreTrainedModel`."""

    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim).requires_grad_(False)
        self.layer = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.GELU())
        self.lm_head = torch.nn.Linear(dim, vocab)
        self._checkpoint = None

    def enable_input_require_grads(self):
        self.embed.register_forward_hook(lambda module, inputs, output: output.requires_grad_(True))

    def gradient_checkpointing_enable(self, gradient_checkpointing_kwargs=None):
        self._checkpoint = functools.partial(checkpoint, **(gradient_checkpointing_kwargs or {"use_reentrant": True}))

    def forward(self, input_ids):
        h = self.embed(input_ids)
        h = self._checkpoint(self.layer, h) if self._checkpoint is not None else self.layer(h)
        return self.lm_head(h)


def enable_gradient_checkpointing(model):
    model.gradient_checkpointing_enable()  # expect: ML013
    return model


def main():
    model = enable_gradient_checkpointing(TinyCausalLM().to(device))
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    for step in range(20):
        tokens = torch.randint(0, 64, (4, 16), device=device)
        loss = F.cross_entropy(model(tokens[:, :-1]).flatten(0, 1), tokens[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

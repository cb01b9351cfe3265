# verify: flat
# A model class whose own `gradient_checkpointing_enable` defaults to `{"use_reentrant": False}` calls itself without kwargs (issue 12, shape 8).
import functools

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyCausalLM(torch.nn.Module):
    """Stands in for a transformers `PreTrainedModel` after PR 43203."""

    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.layer1 = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.GELU())
        self.layer2 = torch.nn.Sequential(torch.nn.Linear(dim, dim), torch.nn.GELU())
        self.lm_head = torch.nn.Linear(dim, vocab)
        self._checkpoint = None

    def gradient_checkpointing_enable(self, gradient_checkpointing_kwargs=None):
        if gradient_checkpointing_kwargs is None:
            gradient_checkpointing_kwargs = {"use_reentrant": False}
        self._checkpoint = functools.partial(checkpoint, **gradient_checkpointing_kwargs)

    def enable_memory_savings(self):
        self.gradient_checkpointing_enable()

    def _run(self, layer, h):
        return self._checkpoint(layer, h) if self._checkpoint is not None and self.training else layer(h)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        h = self._run(self.layer2, self._run(self.layer1, h))
        return self.lm_head(h)


def main():
    model = TinyCausalLM().to(device)
    model.enable_memory_savings()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(20):
        tokens = torch.randint(0, 64, (4, 16), device=device)
        logits = model(tokens[:, :-1])
        loss = F.cross_entropy(logits.flatten(0, 1), tokens[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

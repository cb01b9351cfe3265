# verify: leaks
# `@functools.cache` builds a sinusoidal table per sequence length: with variable-length batches it keeps one tensor per length forever.
import functools
import math

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@functools.cache  # expect: ML012
def sinusoidal_table(seq_len: int, dim: int, device: str) -> torch.Tensor:
    position = torch.arange(seq_len, dtype=torch.float32, device=device).unsqueeze(1)
    freq = torch.exp(torch.arange(0, dim, 2, dtype=torch.float32, device=device) * (-math.log(10000.0) / dim))
    table = torch.zeros(seq_len, dim, device=device)
    table[:, 0::2] = torch.sin(position * freq)
    table[:, 1::2] = torch.cos(position * freq)
    return table


def main():
    embed = torch.nn.Embedding(100, 1024).to(device)
    head = torch.nn.Linear(1024, 100).to(device)
    optimizer = torch.optim.AdamW([*embed.parameters(), *head.parameters()], lr=1e-3)
    for step in range(30):
        seq_len = 256 + 32 * step  # bucketed, variable-length batches
        tokens = torch.randint(0, 100, (4, seq_len), device=device)
        hidden = embed(tokens) + sinusoidal_table(seq_len, 1024, device)
        loss = F.cross_entropy(head(hidden).flatten(0, 1), tokens.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

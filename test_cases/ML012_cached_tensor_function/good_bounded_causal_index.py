# verify: flat
# A bounded `lru_cache(maxsize=8)` keyed by the sequence length returns a small index tensor: at most 8 stay cached.
from functools import lru_cache

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@lru_cache(maxsize=8)
def causal_positions(seq_len: int, device: str) -> torch.Tensor:
    return torch.arange(seq_len, device=device)


def main():
    embed = torch.nn.Embedding(100, 32).to(device)
    pos = torch.nn.Embedding(64, 32).to(device)
    head = torch.nn.Linear(32, 100).to(device)
    optimizer = torch.optim.AdamW([*embed.parameters(), *pos.parameters(), *head.parameters()], lr=1e-3)
    for step in range(20):
        seq_len = (16, 32, 48, 64)[step % 4]
        tokens = torch.randint(0, 100, (8, seq_len), device=device)
        hidden = embed(tokens) + pos(causal_positions(seq_len, device))
        loss = F.cross_entropy(head(hidden).flatten(0, 1), tokens.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

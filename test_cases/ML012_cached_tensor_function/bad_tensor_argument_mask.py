# verify: leaks
# `lru_cache(maxsize=None)` on a helper that takes the batch tensor: every batch stays cached (tensors hash by identity).
from functools import lru_cache

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
PAD = 0


@lru_cache(maxsize=None)  # expect: ML012
def padding_mask(input_ids: torch.Tensor) -> torch.Tensor:
    return (input_ids != PAD).float().unsqueeze(-1)


def main():
    embed = torch.nn.Embedding(100, 32).to(device)
    head = torch.nn.Linear(32, 2).to(device)
    optimizer = torch.optim.AdamW([*embed.parameters(), *head.parameters()], lr=1e-3)
    for step in range(30):
        input_ids = torch.randint(0, 100, (32, 4096), device=device)
        labels = torch.randint(0, 2, (32,), device=device)
        hidden = embed(input_ids) * padding_mask(input_ids)
        loss = F.cross_entropy(head(hidden.mean(1)), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# `lru_cache` on a tokenizer method: the tokenizer holds a vocabulary dict, no module and no tensor.
from functools import lru_cache

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class CharTokenizer:
    def __init__(self, alphabet):
        self.vocab = {ch: i for i, ch in enumerate(alphabet)}

    @lru_cache(maxsize=1024)
    def encode_word(self, word: str) -> tuple[int, ...]:
        return tuple(self.vocab[ch] for ch in word)


def main():
    tokenizer = CharTokenizer("abcdefgh")
    embed = torch.nn.EmbeddingBag(8, 16).to(device)
    head = torch.nn.Linear(16, 2).to(device)
    optimizer = torch.optim.SGD([*embed.parameters(), *head.parameters()], lr=0.1)
    words = ["abc", "hgf", "bead", "fade", "cafe", "dead"]
    for step in range(20):
        word = words[step % len(words)]
        ids = torch.tensor([tokenizer.encode_word(word)], device=device)
        loss = F.cross_entropy(head(embed(ids)), torch.tensor([len(word) % 2], device=device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

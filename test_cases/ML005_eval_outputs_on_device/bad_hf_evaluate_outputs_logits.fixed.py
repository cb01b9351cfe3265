# verify: leaks
# HF-style evaluate(): outputs = model(**batch); logits = outputs.logits collected on the device.
from types import SimpleNamespace

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyLM(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask=None):
        return SimpleNamespace(logits=self.lm_head(self.emb(input_ids)))


@torch.no_grad()
def evaluate(model, eval_dataloader):
    model.eval()
    all_logits = []
    for batch in eval_dataloader:
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        logits = outputs.logits
        all_logits.append(logits.detach().cpu())  # expect: ML005
    return torch.cat(all_logits)


def main():
    model = TinyLM().to(device)
    ids = [torch.randint(0, 1000, (8, 16)) for _ in range(30)]
    eval_dataloader = [{"input_ids": t, "attention_mask": torch.ones_like(t)} for t in ids]
    print("logits:", evaluate(model, eval_dataloader).shape)


if __name__ == "__main__":
    main()

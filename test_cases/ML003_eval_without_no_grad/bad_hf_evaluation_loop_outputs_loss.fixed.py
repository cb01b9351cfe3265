# verify: flat
# HF-style `evaluation_loop`: `outputs = model(**batch)` with grad enabled, only `outputs.loss.item()` kept.
from types import SimpleNamespace

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class ToyLM(torch.nn.Module):
    def __init__(self, vocab=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, 16)
        self.lm_head = torch.nn.Linear(16, vocab)

    def forward(self, input_ids, labels):
        logits = self.lm_head(self.embed(input_ids))
        return SimpleNamespace(loss=F.cross_entropy(logits.flatten(0, 1), labels.flatten()), logits=logits)


@torch.no_grad()
def evaluation_loop(model, eval_dataloader):
    model.eval()
    eval_loss = 0.0
    for batch in eval_dataloader:
        outputs = model(**batch)  # expect: ML003
        eval_loss += outputs.loss.item()
    return eval_loss / len(eval_dataloader)


def main():
    model = ToyLM().to(device)
    eval_dataloader = [{"input_ids": t, "labels": t} for t in torch.randint(0, 32, (20, 4, 12), device=device)]
    print(f"eval loss {evaluation_loop(model, eval_dataloader):.3f}")


if __name__ == "__main__":
    main()

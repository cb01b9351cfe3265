# verify: flat
# HF/accelerate loop: `outputs.loss` is backwarded via accelerator.backward, then appended undetached (warning).
from types import SimpleNamespace

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Accelerator:
    def backward(self, loss):
        loss.backward()


class ToyLM(torch.nn.Module):
    def __init__(self, vocab=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, 16)
        self.lm_head = torch.nn.Linear(16, vocab)

    def forward(self, input_ids, labels):
        logits = self.lm_head(self.embed(input_ids))
        return SimpleNamespace(loss=F.cross_entropy(logits.flatten(0, 1), labels.flatten()), logits=logits)


def main():
    accelerator = Accelerator()
    model = ToyLM().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ids = [torch.randint(0, 32, (4, 12), device=device) for _ in range(20)]
    train_dataloader = [{"input_ids": t, "labels": t} for t in ids]
    epoch_losses = []
    for batch in train_dataloader:
        outputs = model(**batch)
        loss = outputs.loss
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
        epoch_losses.append(loss.detach())  # expect: ML001
    print(f"mean loss {sum(l.item() for l in epoch_losses) / len(epoch_losses):.3f}")


if __name__ == "__main__":
    main()

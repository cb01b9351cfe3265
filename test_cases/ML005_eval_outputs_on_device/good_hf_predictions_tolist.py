# verify: flat
# HF-style evaluate(): logits = outputs.logits, predictions and labels kept as Python lists via .tolist().
from types import SimpleNamespace

import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, num_labels=3):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, labels=None):
        return SimpleNamespace(logits=self.classifier(self.emb(input_ids)))


@torch.no_grad()
def evaluate(model, eval_dataloader):
    model.eval()
    predictions, references = [], []
    for batch in eval_dataloader:
        batch = {k: v.to(device) for k, v in batch.items()}
        outputs = model(**batch)
        logits = outputs.logits
        predictions.extend(logits.argmax(dim=-1).tolist())
        references.extend(batch["labels"].tolist())
    return sum(p == r for p, r in zip(predictions, references)) / len(references)


def main():
    model = TinyClassifier().to(device)
    eval_dataloader = [
        {"input_ids": torch.randint(0, 100, (16, 12)), "labels": torch.randint(0, 3, (16,))} for _ in range(30)
    ]
    print("accuracy:", evaluate(model, eval_dataloader))


if __name__ == "__main__":
    main()

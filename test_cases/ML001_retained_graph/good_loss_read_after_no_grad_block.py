# verify: flat
# run_clm_no_trainer-style evaluation: `outputs` is computed under `no_grad`, `outputs.loss` is read after the block (issue 12, shape 1).
from types import SimpleNamespace

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class ToyLM(torch.nn.Module):
    def __init__(self, vocab=64, dim=512):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim)
        self.hidden = torch.nn.Linear(dim, dim)
        self.lm_head = torch.nn.Linear(dim, vocab)

    def forward(self, input_ids, labels):
        logits = self.lm_head(torch.relu(self.hidden(self.embed(input_ids))))
        return SimpleNamespace(loss=F.cross_entropy(logits.flatten(0, 1), labels.flatten()), logits=logits)


def main():
    model = ToyLM().to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    ids = [torch.randint(0, 64, (8, 128), device=device) for _ in range(20)]
    train_dataloader = [{"input_ids": t, "labels": t} for t in ids[:4]]
    eval_dataloader = [{"input_ids": t, "labels": t} for t in ids]
    for epoch in range(2):
        model.train()
        for batch in train_dataloader:
            outputs = model(**batch)
            loss = outputs.loss
            loss.backward()
            optimizer.step()
            optimizer.zero_grad()
        model.eval()
        losses = []
        for batch in eval_dataloader:
            with torch.no_grad():
                outputs = model(**batch)
            loss = outputs.loss
            losses.append(loss)
        print(f"epoch {epoch}: eval loss {torch.stack(losses).mean().item():.3f}")


if __name__ == "__main__":
    main()

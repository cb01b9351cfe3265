# verify: flat
# Frozen embeddings feed a checkpointed block: with the reentrant default no input requires grad, so the block gets no gradients.
import torch
import torch.nn.functional as F
import torch.utils.checkpoint

device = "cuda" if torch.cuda.is_available() else "cpu"


class AdapterClassifier(torch.nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, dim).requires_grad_(False)  # pretrained, frozen
        self.adapter = torch.nn.Sequential(torch.nn.Linear(dim, 8), torch.nn.ReLU(), torch.nn.Linear(8, dim))
        self.head = torch.nn.Linear(dim, 2)

    def forward(self, tokens):
        h = self.embed(tokens)
        h = h + torch.utils.checkpoint.checkpoint(  # expect: ML013
            self.adapter,
            h,
            use_reentrant=False,
        )
        return self.head(h.mean(1))


def main():
    model = AdapterClassifier().to(device)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)
    for step in range(20):
        tokens, labels = torch.randint(0, 100, (8, 12), device=device), torch.randint(0, 2, (8,), device=device)
        loss = F.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}; adapter has a gradient: {model.adapter[0].weight.grad is not None}")


if __name__ == "__main__":
    main()

# verify: flat
# Seq2seq: the autoregressive decoding loop carries the GRU hidden inside forward; the loss is backwarded once after it.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Seq2Seq(nn.Module):
    def __init__(self, vocab=30, dim=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.decoder = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, src, max_len=10):
        _, hidden = self.encoder(self.embed(src))
        hidden = hidden[0]
        token = torch.zeros(src.size(0), dtype=torch.long, device=src.device)
        logits = []
        for t in range(max_len):
            hidden = self.decoder(self.embed(token), hidden)
            step_logits = self.out(hidden)
            logits.append(step_logits)
            token = step_logits.argmax(-1)
        return torch.stack(logits, dim=1)


def main():
    model = Seq2Seq().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(20):
        src, tgt = torch.randint(0, 30, (8, 12), device=device), torch.randint(0, 30, (8, 10), device=device)
        loss = F.cross_entropy(model(src).reshape(-1, 30), tgt.reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()

# `end_step(hidden)` is named for nothing in particular, but this file defines it: it detaches the
# hidden state in place, so no step's graph reaches the next.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class CharRNN(nn.Module):
    def __init__(self, vocab=40, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.gru = nn.GRU(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, vocab)

    def forward(self, inp, hidden):
        out, hidden = self.gru(self.emb(inp), hidden)
        return self.out(out), hidden


def end_step(hidden):
    hidden.detach_()


def main():
    model = CharRNN().to(device)
    params = list(model.parameters())
    hidden = torch.zeros(1, 256, 32, device=device)
    for step in range(20):
        text = torch.randint(0, 40, (256, 9), device=device)
        logits, hidden = model(text[:, :-1], hidden)
        loss = F.cross_entropy(logits.reshape(-1, 40), text[:, 1:].reshape(-1))
        grads = torch.autograd.grad(loss, params, retain_graph=True)
        for p, g in zip(params, grads):
            p.data.sub_(0.1 * g)
        print(step, loss.item())
        end_step(hidden)


if __name__ == "__main__":
    main()

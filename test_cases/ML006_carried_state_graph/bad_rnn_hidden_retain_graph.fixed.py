# verify: leaks
# Word-LM style loop carries the nn.RNN hidden state across batches without detach, silenced with retain_graph=True.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    rnn = nn.RNN(16, 32, batch_first=True).to(device)
    head = nn.Linear(32, 16).to(device)
    params = list(rnn.parameters()) + list(head.parameters())
    lr = 0.05
    hidden = torch.zeros(1, 2048, 32, device=device)
    for step in range(20):
        x = torch.randn(2048, 4, 16, device=device)
        target = torch.randn(2048, 4, 16, device=device)
        out, hidden = rnn(x, hidden.detach())  # expect: ML006
        loss = F.mse_loss(head(out), target)
        for p in params:
            p.grad = None
        loss.backward(retain_graph=True)
        for p in params:  # old word_language_model update: .data keeps autograd from noticing
            p.data.add_(p.grad, alpha=-lr)
        print(step, loss.item())


if __name__ == "__main__":
    main()

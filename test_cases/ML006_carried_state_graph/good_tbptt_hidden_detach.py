# verify: flat
# Truncated BPTT: the nn.RNN hidden state is detached at the top of every batch, plain backward() and optimizer.step().
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    rnn = nn.RNN(16, 64, batch_first=True).to(device)
    head = nn.Linear(64, 16).to(device)
    optimizer = torch.optim.SGD([*rnn.parameters(), *head.parameters()], lr=0.05)
    hidden = torch.zeros(1, 8, 64, device=device)
    for step in range(30):
        x = torch.randn(8, 12, 16, device=device)
        target = torch.randn(8, 12, 16, device=device)
        hidden = hidden.detach()
        out, hidden = rnn(x, hidden)
        loss = F.mse_loss(head(out), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()

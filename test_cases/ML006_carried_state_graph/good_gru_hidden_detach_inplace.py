# verify: flat
# GRU language-model loop detaches the carried hidden state in place with hidden.detach_() after each step.
import torch
import torch.nn as nn
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    gru = nn.GRU(24, 64, batch_first=True).to(device)
    head = nn.Linear(64, 24).to(device)
    optimizer = torch.optim.SGD([*gru.parameters(), *head.parameters()], lr=0.1)
    hidden = torch.zeros(1, 8, 64, device=device)
    for step in range(30):
        x = torch.randn(8, 16, 24, device=device)
        out, hidden = gru(x, hidden)
        loss = F.mse_loss(head(out[:, :-1]), x[:, 1:])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        hidden.detach_()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()

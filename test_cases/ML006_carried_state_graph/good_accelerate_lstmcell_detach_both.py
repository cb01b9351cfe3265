# verify: flat
# accelerate-style loop over a stream: LSTMCell (h, c) detached together every step before being fed back.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class Accelerator:  # stand-in for accelerate.Accelerator
    def backward(self, loss, **kwargs):
        loss.backward(**kwargs)


def main():
    accelerator = Accelerator()
    cell = nn.LSTMCell(10, 32).to(device)
    head = nn.Linear(32, 10).to(device)
    optimizer = torch.optim.Adam([*cell.parameters(), *head.parameters()], lr=1e-3)
    h = torch.zeros(8, 32, device=device)
    c = torch.zeros(8, 32, device=device)
    for step in range(30):
        x = torch.randn(8, 10, device=device)
        h, c = h.detach(), c.detach()
        h, c = cell(x, (h, c))
        loss = nn.functional.mse_loss(head(h), x)
        optimizer.zero_grad()
        accelerator.backward(loss)
        optimizer.step()
    print("loss:", loss.item())


if __name__ == "__main__":
    main()

# verify: leaks
# accelerate-style loop: LSTMCell (h, c) carried across steps, accelerator.backward(loss, retain_graph=True).
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
    params = [*cell.parameters(), *head.parameters()]
    h = torch.zeros(1024, 32, device=device)
    c = torch.zeros(1024, 32, device=device)
    for step in range(20):
        x = torch.randn(1024, 10, device=device)
        h, c = cell(x, (h.detach(), c.detach()))  # expect: ML006
        loss = nn.functional.mse_loss(head(h), x)
        accelerator.backward(loss, retain_graph=True)
        for p in params:
            p.data.add_(p.grad, alpha=-0.01)
            p.grad = None
    print("loss:", loss.item())


if __name__ == "__main__":
    main()

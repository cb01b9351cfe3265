# verify: leaks
# Keras-style "stateful" LSTM module keeps its state on self.hidden across training steps, never detached.
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class StatefulLSTM(nn.Module):
    def __init__(self, n_in=8, n_hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(n_in, n_hidden, batch_first=True)
        self.head = nn.Linear(n_hidden, 1)
        self.hidden = None

    def forward(self, x):
        out, self.hidden = self.lstm(x, self.hidden.detach())  # expect: ML006
        return self.head(out[:, -1])


def main():
    model = StatefulLSTM().to(device)
    params = list(model.parameters())
    for step in range(20):
        x, y = torch.randn(512, 5, 8, device=device), torch.randn(512, 1, device=device)
        loss = (model(x) - y).pow(2).mean()
        for p in params:
            p.grad = None
        loss.backward(retain_graph=True)
        for p in params:
            p.data.add_(p.grad, alpha=-0.01)
        print(step, loss.item())


if __name__ == "__main__":
    main()

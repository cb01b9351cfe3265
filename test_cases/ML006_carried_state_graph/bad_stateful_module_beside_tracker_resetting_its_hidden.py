# A stateful LSTM keeps its state on `self.hidden` across training steps, never detached. Another
# class of the file resets an attribute of the same name (`self.hidden = torch.zeros(...)`), but that
# is the tracker's own state: the module's graph still grows step after step.
import torch
import torch.nn as nn


class StatefulLSTM(nn.Module):
    def __init__(self, n_in=8, n_hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(n_in, n_hidden, batch_first=True)
        self.head = nn.Linear(n_hidden, 1)
        self.hidden = None

    def forward(self, x):
        out, self.hidden = self.lstm(x, self.hidden)  # expect: ML006
        return self.head(out[:, -1])


class Tracker:
    def __init__(self, size):
        self.size = size
        self.hidden = None

    def reset(self):
        self.hidden = torch.zeros(self.size)


def main(loader):
    model = StatefulLSTM()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in loader:
        loss = (model(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()

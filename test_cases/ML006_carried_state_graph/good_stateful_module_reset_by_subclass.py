# The look-alike: the class that resets `self.hidden` between sequences derives from the stateful
# module, so it resets the module's own state (truncated backpropagation through time).
import torch
import torch.nn as nn


class StatefulLSTM(nn.Module):
    def __init__(self, n_in=8, n_hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(n_in, n_hidden, batch_first=True)
        self.head = nn.Linear(n_hidden, 1)
        self.hidden = None

    def forward(self, x):
        out, self.hidden = self.lstm(x, self.hidden)
        return self.head(out[:, -1])


class TruncatedLSTM(StatefulLSTM):
    def reset(self, batch_size):
        self.hidden = (torch.zeros(1, batch_size, 32), torch.zeros(1, batch_size, 32))


def main(loader):
    model = TruncatedLSTM()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for x, y in loader:
        model.reset(x.shape[0])
        loss = (model(x) - y).pow(2).mean()
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()

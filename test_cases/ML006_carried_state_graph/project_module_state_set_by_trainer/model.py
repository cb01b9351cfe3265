# Linted as one project with train.py, which differentiates. `Recurrent` keeps its GRU state on `self`
# between forwards (`out, self.hidden = self.rnn(x, self.hidden)`), but train.py sets that state on
# every batch (`rnn.hidden = rnn.init_hidden(n)`): the training file truncates it, so nothing is
# reported (the look-alike of project_module_state_trained_in_other_file).
import torch
from torch import nn


class Recurrent(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.size = size
        self.rnn = nn.GRU(size, size, batch_first=True)
        self.hidden = None

    def init_hidden(self, batch_size):
        return torch.zeros(1, batch_size, self.size)

    def forward(self, x):
        out, self.hidden = self.rnn(x, self.hidden)
        return out

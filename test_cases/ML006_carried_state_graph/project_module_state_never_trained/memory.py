# Linted as one project with play.py, which only runs this module: no file of the project differentiates,
# so the state it keeps on `self` (`state = self._memory` ... `self._memory = state`) links no graph to
# a backward, and nothing is reported (the look-alike of project_module_state_trained_in_other_file).
from torch import nn


class Recurrent(nn.Module):
    def __init__(self, size):
        super().__init__()
        self._net = nn.LSTM(size, size)
        self._memory = None

    def forward(self, x):
        state = self._memory
        hidden, state = self._net(x, state)
        self._memory = state
        return hidden

# Linted as one project with train.py, which backwards through these modules' outputs. Nothing here
# differentiates, but train.py does: `Recurrent` keeps its LSTM state on `self` through a name of its
# own (`state = self._memory` ... `self._memory = state`), so every step's graph stays linked to the
# next one's (its setter and its reset to None, which no loop calls, detach nothing). The look-alikes
# stay silent: `Truncated` stores the state back detached, and `Pooled` keeps on `self` a name that
# never reached the LSTM as its state.
import torch
from torch import nn


class Recurrent(nn.Module):
    def __init__(self, size):
        super().__init__()
        self._net = nn.LSTM(size, size)
        self._memory = None

    def forward(self, x):
        state = self._memory
        hidden, state = self._net(x, state)
        self._memory = state  # expect: ML006
        return hidden

    def set_memory(self, memory):
        self._memory = memory  # (what a caller hands: no detach in sight)

    def reset_memory(self):
        self._memory = None


class Truncated(nn.Module):
    def __init__(self, size):
        super().__init__()
        self._net = nn.LSTM(size, size)
        self._memory = None

    def forward(self, x):
        state = self._memory
        hidden, state = self._net(x, state)
        self._memory = (state[0].detach(), state[1].detach())
        return hidden


class Pooled(nn.Module):
    def __init__(self, size):
        super().__init__()
        self._net = nn.LSTM(size, size)
        self._last = None

    def forward(self, x):
        hidden, state = self._net(x)
        self._last = hidden.mean(0).detach()
        return hidden

# Linted as one project with trainer.py: the base class declares what every model's `forward_loss`
# returns, a loss tensor and the number of data points it was computed on (an int).
from abc import abstractmethod

import torch


class Model(torch.nn.Module):
    @abstractmethod
    def forward_loss(self, data_points: list) -> tuple[torch.Tensor, int]:
        raise NotImplementedError

# Linted as one project with trainer.py: the base class declares that every model's `forward_loss`
# returns two tensors, the loss and its unweighted sum, which carries the loss's graph.
from abc import abstractmethod

import torch


class Model(torch.nn.Module):
    @abstractmethod
    def forward_loss(self, data_points: list) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError

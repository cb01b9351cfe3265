# Linted as one project with heads.py: the base class of a detection head. Its `get_loss` computes
# the loss from the predictions a subclass's `forward` stored in `self.forward_ret_dict`; the
# training step backwards what it returns, and the next `forward` replaces them.
import torch
from torch import nn


class HeadTemplate(nn.Module):
    def __init__(self):
        super().__init__()
        self.forward_ret_dict = {}

    def get_loss(self):
        preds = self.forward_ret_dict["pred_dicts"]
        targets = self.forward_ret_dict["targets"]
        loss = sum(torch.nn.functional.mse_loss(p["hm"], t) for p, t in zip(preds, targets))
        return loss, {"loss": loss.item()}

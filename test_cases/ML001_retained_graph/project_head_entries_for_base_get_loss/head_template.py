# Linted as one project with heads.py: the base class of a detection head. Its `get_loss` computes the
# loss from the predictions a subclass's `forward` stored in entries of `self.forward_ret_dict`; the
# training step backwards what it returns, and the next `forward` replaces them.
import torch
from torch import nn


class HeadTemplate(nn.Module):
    def __init__(self):
        super().__init__()
        self.forward_ret_dict = {}

    def get_loss(self):
        cls_preds = self.forward_ret_dict["cls_preds"]
        labels = self.forward_ret_dict["labels"]
        loss = torch.nn.functional.cross_entropy(cls_preds.flatten(0, 2), labels.flatten())
        return loss, {"loss": loss.item()}

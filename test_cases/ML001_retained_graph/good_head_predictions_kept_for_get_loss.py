# OpenPCDet's dense heads: `forward` stores each sub-head's predictions in `self.forward_ret_dict`,
# and `get_loss` computes the loss from them, which the training step backwards. The next
# `forward` replaces them: one step's graph, kept on purpose. (Compare
# bad_chunked_forward_chunks_kept_on_self.py, whose kept list no method reads.)
import torch
from torch import nn


class CenterHead(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.heads_list = nn.ModuleList(heads)
        self.forward_ret_dict = {}

    def get_loss(self):
        pred_dicts = self.forward_ret_dict["pred_dicts"]
        targets = self.forward_ret_dict["targets"]
        loss = 0
        for pred, target in zip(pred_dicts, targets):
            loss += torch.nn.functional.mse_loss(pred["hm"], target)
        return loss, {"loss": loss.item()}

    def forward(self, data_dict):
        x = data_dict["features"]
        pred_dicts = []
        for head in self.heads_list:
            pred_dicts.append(head(x))
        self.forward_ret_dict["targets"] = data_dict["targets"]
        self.forward_ret_dict["pred_dicts"] = pred_dicts
        return data_dict

# Linted as one project with head_template.py. `CenterHead` stores each sub-head's predictions for
# the base class's `get_loss` (another file), which computes the loss from them: nothing to report.
# `TracingHead` keeps them under an attribute no method reads: every call's graphs stay.
from torch import nn

from head_template import HeadTemplate


class CenterHead(HeadTemplate):
    def __init__(self, heads):
        super().__init__()
        self.heads_list = nn.ModuleList(heads)

    def forward(self, data_dict):
        x = data_dict["features"]
        pred_dicts = []
        for head in self.heads_list:
            pred_dicts.append(head(x))
        self.forward_ret_dict["pred_dicts"] = pred_dicts
        self.forward_ret_dict["targets"] = data_dict["targets"]
        return data_dict


class TracingHead(HeadTemplate):
    def __init__(self, heads):
        super().__init__()
        self.heads_list = nn.ModuleList(heads)

    def forward(self, data_dict):
        x = data_dict["features"]
        pred_dicts = []
        for head in self.heads_list:
            pred_dicts.append(head(x))  # expect: ML001
        self.traced_predictions = pred_dicts
        return data_dict

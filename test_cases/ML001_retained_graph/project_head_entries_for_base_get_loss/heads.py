# Linted as one project with head_template.py. `AnchorHead` stores its predictions under fixed keys of
# the dict the base class's `get_loss` (another file) computes the loss from: every forward replaces
# them, so the report says they are kept until the next call, with no detach offered (the loss needs
# their graph). `CountingHead` stores them under a key that changes with every call: the dict keeps
# every call's predictions with their graphs.
from torch import nn

from head_template import HeadTemplate


class AnchorHead(HeadTemplate):
    def __init__(self, channels, classes):
        super().__init__()
        self.conv_cls = nn.Conv2d(channels, classes, 1)

    def forward(self, data_dict):
        cls_preds = self.conv_cls(data_dict["features"])
        cls_preds = cls_preds.permute(0, 2, 3, 1).contiguous()
        self.forward_ret_dict["cls_preds"] = cls_preds  # expect: ML001
        self.forward_ret_dict["labels"] = data_dict["labels"]
        return data_dict


class CountingHead(HeadTemplate):
    def __init__(self, channels, classes):
        super().__init__()
        self.conv_cls = nn.Conv2d(channels, classes, 1)
        self.calls = 0

    def forward(self, data_dict):
        cls_preds = self.conv_cls(data_dict["features"])
        self.forward_ret_dict[self.calls] = cls_preds  # expect: ML001
        self.calls += 1
        return data_dict

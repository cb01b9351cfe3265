# The twin of good_module_attribute_set_to_a_number.py: what this function stores on the model is
# a detached output of each step, a device tensor, and the history keeps one per step.
from collections import defaultdict

import torch
import torch.nn as nn


class CaptionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        return self.fc(x)


def train(opt, loader):
    model = CaptionModel().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    histories = defaultdict(dict)
    iteration = 0
    for data in loader:
        out = model(data.cuda())
        loss = out.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model.last_out = out.detach()
        iteration += 1
        histories["outputs"][iteration] = model.last_out  # expect: ML005
    return histories

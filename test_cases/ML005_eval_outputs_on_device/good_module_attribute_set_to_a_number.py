# `model.ss_prob` is an attribute of a model on the GPU, but all this function stores there is a
# number from its options (the scheduled-sampling probability): the history keeps floats, not
# device tensors.
from collections import defaultdict

import torch
import torch.nn as nn


class CaptionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.ss_prob = 0.0

    def forward(self, x):
        return self.fc(x)


def train(opt, loader):
    model = CaptionModel().cuda()
    optimizer = torch.optim.Adam(model.parameters())
    histories = defaultdict(dict)
    iteration = 0
    for epoch in range(opt.epochs):
        opt.ss_prob = min(opt.increase_prob * epoch, opt.max_prob)
        model.ss_prob = opt.ss_prob
        for data in loader:
            loss = model(data.cuda()).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1
            histories["loss_history"][iteration] = loss.item()
            histories["ss_prob_history"][iteration] = model.ss_prob
    return histories

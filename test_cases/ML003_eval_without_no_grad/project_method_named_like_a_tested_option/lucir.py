# `imprint_weights` runs the network over a class's samples with grad on, but its only call is
# inside `with torch.no_grad()`. The option of the same name (`if self.args.imprint_weights:`) is
# only tested for truth, which hands no method on: the callers are known, no finding (icarl.py
# holds the look-alike that still reports).
import torch
import torch.nn.functional as F


class Lucir:
    def __init__(self, net, args):
        self.net = net
        self.args = args

    def begin_task(self, loader):
        with torch.no_grad():
            if self.args.imprint_weights:
                self.imprint_weights(loader)

    def imprint_weights(self, loader):
        self.net.eval()
        features = []
        for x, _ in loader:
            features.append(self.net(x).cpu())
        self.net.train()
        return F.normalize(torch.cat(features), dim=1)

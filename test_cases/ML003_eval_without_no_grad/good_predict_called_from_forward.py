# `_predict` is named like evaluation, but its only caller in this file is the module's
# `forward`: it is forward code, run with grad in training (torchrl's VLA wrapper).
import torch


class Wrapper(torch.nn.Module):
    def _predict(self, td):
        raise NotImplementedError

    def forward(self, td):
        return self._predict(td).flatten(-2)


class TinyPolicy(Wrapper):
    def _predict(self, td):
        return self.head(self.trunk(td["image"]))

# Linted as one project with probes.py: a pytest file whose toy module keeps its activations on
# `self` so that the test can compare them with what a monitor logged. It runs once; no training
# step ever follows, so nothing is kept from one step to the next.
import torch
import torch.nn as nn


class MonitoredModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(12, 5)

    def forward(self, x):
        x = x.flatten(1)
        self.layer_input = x
        x = self.layer(x)
        self.layer_output = x
        return torch.relu(x)


def test_monitor_sees_the_activations():
    model = MonitoredModel()
    seen = []
    model.layer.register_forward_hook(lambda module, args, out: seen.append(out))
    model(torch.rand(2, 3, 4))
    assert torch.equal(seen[0], model.layer_output)

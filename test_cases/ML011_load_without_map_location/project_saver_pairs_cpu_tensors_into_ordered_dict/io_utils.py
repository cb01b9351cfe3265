# Linted as one project with processor.py: the project's only saver builds an `OrderedDict` from
# key-value pairs whose values are moved to the CPU (`[[k, v.cpu()] for k, v in ...]`), so every
# checkpoint the project writes holds CPU tensors alone, and loading one puts nothing on a GPU.
from collections import OrderedDict

import torch


class IO:
    def __init__(self, work_dir):
        self.work_dir = work_dir

    def load_weights(self, model, weights_path):
        weights = torch.load(weights_path)
        weights = OrderedDict([[k.split("module.")[-1], v.cpu()] for k, v in weights.items()])
        model.load_state_dict(weights)
        return model

    def save_model(self, model, name):
        state_dict = model.state_dict()
        weights = OrderedDict([["".join(k.split("module.")), v.cpu()] for k, v in state_dict.items()])
        torch.save(weights, f"{self.work_dir}/{name}")

# Linted as one project with processor.py: the saver builds an `OrderedDict` from key-value pairs
# whose values are the model's tensors as they are, on its device (and the epoch beside them):
# loading a checkpoint it wrote puts them back there.
from collections import OrderedDict

import torch


class IO:
    def __init__(self, work_dir):
        self.work_dir = work_dir

    def load_weights(self, model, weights_path):
        weights = torch.load(weights_path)  # expect: ML011
        weights = OrderedDict([[k.split("module.")[-1], v.cpu()] for k, v in weights.items()])
        model.load_state_dict(weights)
        return model

    def save_model(self, model, name, epoch):
        state_dict = model.state_dict()
        weights = OrderedDict([["".join(k.split("module.")), v] for k, v in state_dict.items()])
        torch.save(OrderedDict([("weights", weights), ("epoch", epoch)]), f"{self.work_dir}/{name}")

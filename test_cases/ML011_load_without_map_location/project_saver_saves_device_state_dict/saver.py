# Linted as one project with evaluate.py: the saver writes the model's state dict as it is, with
# the tensors on the model's device.
import os

import torch


class ModelSaver:
    def __init__(self, output_dir):
        self.output_dir = output_dir

    def save(self, model, step):
        torch.save(model.state_dict(), os.path.join(self.output_dir, f"model_{step}.pt"))

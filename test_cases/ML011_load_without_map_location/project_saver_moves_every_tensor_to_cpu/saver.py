# Linted as one project with evaluate.py: the project's only saver moves every tensor of the state
# dict to the CPU before `torch.save` (its other values, not tensors, as they are), so every
# checkpoint the project writes holds CPU tensors alone.
import os

import torch


class ModelSaver:
    def __init__(self, output_dir):
        self.output_dir = output_dir

    def save(self, model, step):
        state_dict = {k: v.cpu() if isinstance(v, torch.Tensor) else v for k, v in model.state_dict().items()}
        torch.save(state_dict, os.path.join(self.output_dir, f"model_{step}.pt"))

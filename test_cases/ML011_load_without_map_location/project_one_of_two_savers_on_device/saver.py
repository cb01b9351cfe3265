# Linted as one project with evaluate.py: the model saver moves every tensor to the CPU, but the
# training state saver writes the optimizer's state (moments of the parameters, on their device).
import os

import torch


class ModelSaver:
    def __init__(self, output_dir):
        self.output_dir = output_dir

    def save(self, model, step):
        state_dict = {k: v.cpu() if isinstance(v, torch.Tensor) else v for k, v in model.state_dict().items()}
        torch.save(state_dict, os.path.join(self.output_dir, f"model_{step}.pt"))

    def save_training_state(self, optimizer, step):
        torch.save({"step": step, "optimizer": optimizer.state_dict()}, os.path.join(self.output_dir, f"state_{step}.pt"))

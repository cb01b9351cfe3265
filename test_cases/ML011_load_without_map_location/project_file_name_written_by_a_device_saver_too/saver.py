# Linted as one project with ema.py and evaluate.py: the model saver moves every tensor to the CPU
# and names its files `model_step_<step>.pt`; the training state saver writes the optimizer's state
# to `train_state_<step>.pt`.
import os

import torch


class ModelSaver:
    def __init__(self, output_dir, prefix="model_step", suffix="pt"):
        self.output_dir = output_dir
        self.prefix = prefix
        self.suffix = suffix

    def save(self, model, step, optimizer=None):
        path = os.path.join(self.output_dir, f"{self.prefix}_{step}.{self.suffix}")
        state_dict = {k: v.cpu() if isinstance(v, torch.Tensor) else v for k, v in model.state_dict().items()}
        torch.save(state_dict, path)
        if optimizer is not None:
            torch.save({"step": step, "optimizer": optimizer.state_dict()}, f"{self.output_dir}/train_state_{step}.pt")

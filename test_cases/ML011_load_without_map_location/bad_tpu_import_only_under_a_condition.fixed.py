# torch_xla is imported only where a TPU is found: on GPUs this file's checkpoints are written by
# `torch.save` from the device, and the optimizer state goes back there on load.
import torch

from .utils import is_tpu_available

if is_tpu_available():
    import torch_xla.core.xla_model as xm


def load_optimizer(optimizer, input_optimizer_file):
    optimizer_state = torch.load(input_optimizer_file, map_location="cpu")  # expect: ML011
    optimizer.load_state_dict(optimizer_state)

# TPU code: its checkpoints are written by `xm.save`, which moves every tensor to the CPU first.
import torch
import torch_xla.core.xla_model as xm


def save_optimizer(optimizer, path):
    xm.save(optimizer.state_dict(), path)


def load_optimizer(optimizer, path):
    optimizer_state = torch.load(path)
    optimizer.load_state_dict(optimizer_state)

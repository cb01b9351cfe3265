# Linted as one project with train.py: helpers that detach what they are handed, a value or a
# mapping's values (the guarded form leaves non-tensors as they are), and one that copies it.
import torch


def detach_all(outputs):
    return {k: v.detach() if torch.is_tensor(v) else v for k, v in outputs.items()}


def detach_values(outputs):
    return {k: v.detach() for k, v in outputs.items()}


def detach_one(value):
    return value.detach() if isinstance(value, torch.Tensor) else value


def copy_all(outputs):
    return {k: v for k, v in outputs.items()}

# Linted as one project with forecaster.py and metrics.py: a helper that returns a copy of a
# mapping with its tensors detached.
import torch


def detach(log):
    return {k: v.detach() if isinstance(v, torch.Tensor) else v for k, v in log.items()}

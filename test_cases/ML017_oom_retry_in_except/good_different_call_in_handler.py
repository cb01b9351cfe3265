# The handler falls back to the CPU copy of the data statistics, not to the step that failed.
import numpy as np
import torch


def statistics(x):
    try:
        return torch.linalg.svdvals(x.cuda())
    except torch.cuda.OutOfMemoryError:
        return torch.from_numpy(np.linalg.svd(x.numpy(), compute_uv=False))

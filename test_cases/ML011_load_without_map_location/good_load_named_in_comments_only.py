# Path helpers for checkpoints: the comments mention torch.load and CUDA devices, the code
# only builds file names (nothing is loaded, no tensor is created).
import os


def checkpoint_path(root, epoch):
    """Where epoch `epoch`'s checkpoint goes; torch.load(path, map_location="cpu") reads it back."""
    # saved from cuda:0 by the trainer, so a reader needs map_location on a CPU-only host
    return os.path.join(root, "epoch-%04d.pt" % epoch)


def newest(names):
    """The newest checkpoint name among `names` (by epoch number), or None."""
    return max(names, default=None)

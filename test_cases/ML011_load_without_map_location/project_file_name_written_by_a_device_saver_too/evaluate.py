# Linted as one project with saver.py and ema.py: `model_step_<step>.pt` may be the model saver's
# (CPU tensors) or the averaged weights (saved from the device).
import torch


def load_model(train_dir, step):
    checkpoint = torch.load(f"{train_dir}/ckpt/model_step_{step}.pt")  # expect: ML011
    return checkpoint

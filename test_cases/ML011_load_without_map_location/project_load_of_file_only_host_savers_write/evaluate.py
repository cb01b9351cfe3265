# Linted as one project with saver.py and convert.py: `model_step_<step>.pt` is a file only the
# model saver writes, with CPU tensors; `train_state_<step>.pt` holds the optimizer's state as it
# was on the device; a path handed in, or one whose name says only its extension, may be either,
# and only their names say they are checkpoints at all: shown with `--preview`.
import os

import torch


def load_model(train_dir, step):
    checkpoint = torch.load(f"{train_dir}/ckpt/model_step_{step}.pt")
    return checkpoint


def resume(train_dir, step, optimizer):
    state = torch.load(os.path.join(train_dir, f"train_state_{step}.pt"))  # expect: ML011
    optimizer.load_state_dict(state["optimizer"])


def load_given(checkpoint_path):
    return torch.load(checkpoint_path)  # preview: ML011


def load_named(checkpoint_dir, name):
    return torch.load(f"{checkpoint_dir}/{name}.pt")  # preview: ML011

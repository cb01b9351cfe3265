# Loads whose names say "checkpoint" and "model" but whose use says what they hold: an RNG state
# (CPU byte tensors) set with `torch.set_rng_state`, and the state of an LR scheduler built from
# `torch.optim.lr_scheduler` (Python numbers). Nothing lands on a GPU.
import io
import os

import torch


def restore_generators(directory):
    checkpoint = torch.load(os.path.join(directory, "checkpoint_rng.pth"))
    torch.set_rng_state(checkpoint["cpu"])
    torch.cuda.set_rng_state_all(checkpoint["cuda"])


def restore_from_buffer(blob):
    model_state = torch.load(io.BytesIO(blob))
    torch.set_rng_state(model_state)


def restore_schedule(directory, optimizer):
    lr_policy = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
    best_model_state = torch.load(os.path.join(directory, "best_model_state.pt"))
    lr_policy.load_state_dict(best_model_state)
    return lr_policy

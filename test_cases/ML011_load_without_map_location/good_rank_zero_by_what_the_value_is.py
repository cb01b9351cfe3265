# Checkpoints saved from the CPU, read back on rank 0 alone: what the tested values are decides, not
# their names. `writer` holds `accelerator.process_index` and `leader` is set from the launcher's
# RANK variable: both are this process's rank, so the loads read what this program saved from the CPU.
import os

import torch
from accelerate import Accelerator

accelerator = Accelerator()
leader = int(os.environ.get("RANK", "0")) == 0


def save(model, path):
    torch.save({k: v.cpu() for k, v in model.state_dict().items()}, path)


def save_for_inference(model, path):
    torch.save(model.state_dict(), path)


def restore(model, path):
    writer = accelerator.process_index
    if writer == 0:
        model.load_state_dict(torch.load(path))


def restore_on_leader(model, path):
    if leader:
        model.load_state_dict(torch.load(path))

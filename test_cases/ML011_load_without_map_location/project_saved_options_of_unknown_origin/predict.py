# Linted as one project with main.py and trainer.py: what the options file holds depends on what
# `load_config` builds, which the project does not show.
import os

import torch


def get_args(model_dir):
    return torch.load(os.path.join(model_dir, "training_args.bin"))  # expect: ML011

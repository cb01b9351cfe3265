# Linted as one project with loader.py: what the project writes to each file decides what loading
# it puts on a device, not the file's name.
import os

import torch


def save(model, directory, mean, std):
    torch.save({"mean": mean.item(), "std": std.item()}, os.path.join(directory, "model_stats.pt"))
    torch.save(model.state_dict(), os.path.join(directory, "weights_last.pt"))

# Linted as one project with trainer.py: the "net" entry was saved from the model after it was
# moved to the CPU, so this load puts nothing on a GPU; "gen" was saved from the model on the device.
import os

import torch


def load_classifier(model, save_dir):
    model.load_state_dict(torch.load(os.path.join(save_dir, "best.pth"))["net"])
    return model.eval()


def load_generator(model, path):
    model.load_state_dict(torch.load(path)["gen"])  # expect: ML011
    return model.eval()

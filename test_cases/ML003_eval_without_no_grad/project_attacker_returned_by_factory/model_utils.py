# Linted as one project with attacker.py and inspect_script.py: the factories other files call.
import torch
from torch import nn

from attacker import AttackerModel


def make_and_restore_model(arch: nn.Module, resume_path=None, parallel=False):
    model = AttackerModel(arch)
    checkpoint = None
    if resume_path:
        checkpoint = torch.load(resume_path, map_location="cpu")
        model.load_state_dict(checkpoint["model"])
    if parallel:
        model = torch.nn.DataParallel(model)
    model = model.cuda()
    return model, checkpoint


def make_classifier(arch: nn.Module, resume_path=None):
    checkpoint = torch.load(resume_path, map_location="cpu") if resume_path else None
    return arch.cuda(), checkpoint

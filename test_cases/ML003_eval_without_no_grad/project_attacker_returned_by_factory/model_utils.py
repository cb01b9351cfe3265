# Linted as one project with attacker.py and inspect_script.py: the factories other files call.
import torch
from torch import nn

from attacker import AttackerModel


class MaskedNet(nn.Module):
    """Makes its edge mask require grad for explainers to differentiate later; it takes no gradient itself."""

    def __init__(self, arch: nn.Module):
        super().__init__()
        self.arch = arch
        self.mask = nn.Parameter(torch.ones(1))

    def forward(self, x):
        mask = self.mask.detach().clone()
        mask.requires_grad_(True)
        return self.arch(x * mask)


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
    return MaskedNet(arch).cuda(), checkpoint

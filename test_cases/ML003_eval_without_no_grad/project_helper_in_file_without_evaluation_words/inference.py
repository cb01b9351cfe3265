# Linted as one project with evaluate.py: nothing in this file names evaluation, yet its callers
# hand `forward_one` models in eval mode from their evaluation loops: the run with grad is here.
import torch


def forward_one(model, batch):
    return model(batch["image"].cuda())  # expect: ML003


@torch.no_grad()
def forward_one_no_grad(model, batch):
    return model(batch["image"].cuda()).cpu()

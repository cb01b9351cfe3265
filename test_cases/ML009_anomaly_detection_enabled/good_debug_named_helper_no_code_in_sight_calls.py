# `sanity_check_nan` is called by no code in sight: only its name says it is for debugging, so the
# finding assumes it runs on every run, is shown with `--preview` only and offers no edit (switching
# anomaly mode off in a helper that runs only to debug would undo its point).
import torch
import torch.nn.functional as F


def sanity_check_nan(model, x, y):
    torch.autograd.set_detect_anomaly(True)  # preview: ML009
    F.cross_entropy(model(x), y).backward()

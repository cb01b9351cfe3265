# `runner.train_loop()` is defined out of sight and trains by its name alone: the finding assumes it,
# is shown with `--preview` only and offers no edit.
import torch


def run(runner):
    with torch.autograd.detect_anomaly():  # preview: ML009
        runner.train_loop()

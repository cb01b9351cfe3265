# Linted as one project with train.py, which star-imports these helpers. `read_all` hands back what
# it loads and train.py copies it into a model: a state dict, by the use in another file. What
# `read_settings` hands back goes only into an LR scheduler: only its names say checkpoint.
import torch


def load_state(net, checkpoint):
    net.load_state_dict(checkpoint["state_dict"])


def read_all(path):
    checkpoint = torch.load(path)  # expect: ML011
    return checkpoint


def read_settings(path):
    checkpoint = torch.load(path)  # preview: ML011
    return checkpoint


def save_all(model, optimizer, path):
    torch.save({"net": model.state_dict(), "opt": optimizer.state_dict()}, path)


def save_statistics(features, path):
    torch.save({"mean": features.mean(0).cpu()}, path)

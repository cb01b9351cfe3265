# Loads handed to functions of this file that read only numbers from their parameter: nothing shows
# a state dict, so only the names (`checkpoint`) say checkpoint, an assumption shown with `--preview`;
# the load whose names say nothing is not reported.
import torch


def load_config(cfg):
    return {"lr": float(cfg["lr"]), "epochs": int(cfg["epochs"])}


def epochs_done(checkpoint):
    return int(checkpoint["epoch"])


def settings(args):
    cfg = torch.load(args.settings)
    return load_config(cfg)


def progress(args):
    checkpoint = torch.load(args.resume)  # preview: ML011
    return epochs_done(checkpoint)

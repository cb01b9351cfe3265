# Linted as one project with helpers.py, whose helpers come in by a star import: a load handed to
# `load_state`, which puts it into `load_state_dict`, is a state dict; so is a load read by the keys
# that `save_all` writes with state dicts taken as they are (`{"net": model.state_dict(), ...}`). A
# load read by a key that the project writes from the CPU (`"mean"`) holds CPU tensors, and one
# handed to a function that no file of the project defines rests on its names.
import torch
from helpers import *
from restorer import *


def resume(net, args):
    checkpoint = torch.load(args.resume)  # expect: ML011
    load_state(net, checkpoint)


def both(net, args):
    states = read_all(args.file)
    net.load_state_dict(states["net"])


def schedule(optimizer, args):
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
    scheduler.load_state_dict(read_settings(args.settings))
    return scheduler


def parts(args):
    ckpt = torch.load(args.ckpt)  # expect: ML011
    return ckpt["net"], ckpt["opt"]


def statistics(args):
    ckpt = torch.load(args.stats_ckpt)
    return ckpt["mean"]


def restored(net, args):
    checkpoint = torch.load(args.restore_checkpoint)  # preview: ML011
    restore(net, checkpoint)
    return net

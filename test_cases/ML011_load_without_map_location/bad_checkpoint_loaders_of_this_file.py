# Loaders of this file that hand `torch.load` what their callers pass: a `map_location` parameter
# that defaults to None, or the callers' own `*args, **kwargs` forwarded. A call that passes no
# `map_location` loads to the device the checkpoint was saved from (the fix passes it by the
# loader's parameter, `device="cpu"`); one that passes it, by keyword or in its place, does not. A loader that sets `map_location` itself forwards nothing unset.
import torch


def load_ckpt(path, map_location=None):
    return torch.load(path, map_location=map_location)


def load_weights(path, device=None):
    return torch.load(path, map_location=device)


def load_file(*args, **kwargs):
    return torch.load(*args, **kwargs)


def load_on_cpu(*args, **kwargs):
    kwargs.setdefault("map_location", "cpu")
    return torch.load(*args, **kwargs)


def resume(net, args):
    net.load_state_dict(load_ckpt(args.resume))  # expect: ML011
    net.load_state_dict(load_file(args.resume))  # expect: ML011
    net.load_state_dict(load_weights(args.resume))  # expect: ML011


def resume_on_cpu(net, args):
    net.load_state_dict(load_ckpt(args.resume, map_location="cpu"))
    net.load_state_dict(load_file(args.resume, "cpu"))
    net.load_state_dict(load_file(args.resume, map_location="cpu"))
    net.load_state_dict(load_on_cpu(args.resume))

# A load whose value this file hands back without reading it: only the names (`args.resume`,
# `load_checkpoint`) say it is a checkpoint, so the finding rests on that assumption and is shown
# with `--preview`. Its value copied, through a renamed dict, into a model is a fact, and so is a
# loaded value used as a module (`net.eval()`): a pickled model.
import torch


def load_checkpoint(args):
    return torch.load(args.resume)  # preview: ML011


def load_weights(model, path):
    loaded = torch.load(path)  # expect: ML011
    renamed = {}
    for key, value in loaded.items():
        renamed[key.replace("module.", "")] = value
    model.load_state_dict(renamed)
    return model


def load_pickled(path):
    net = torch.load(path)  # expect: ML011
    net.eval()
    return net

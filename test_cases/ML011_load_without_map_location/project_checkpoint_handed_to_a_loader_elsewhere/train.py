# Linted as one project with helpers.py: the loads are handed to helpers of that file. `load_state`
# and `Network.load_weights` put the parameter they are handed, or a part of it, into
# `load_state_dict`: the loads are state dicts, by the helpers' bodies, whatever the names say.
# A method called on an object whose class this file does not show (`network` handed in) is any
# project method of its name: `Network.load_weights` loads it too. A class whose constructor keeps
# what it is handed for a method that loads it (`Evaluator`) counts as well. `load_config` and
# `Reporter` only read numbers from what they are handed, and `restore` is a library's, out of
# sight: those loads rest on their names alone.
import torch
from restorer import restore

from helpers import Evaluator, Network, Reporter, load_config, load_state


def resume(net, args):
    checkpoint = torch.load(args.resume)  # expect: ML011
    load_state(net, checkpoint)
    return checkpoint["epoch"]


def warm_start(args):
    network = Network()
    model_weights = torch.load(args.weights)  # expect: ML011
    network.load_weights(weights=model_weights["net"])
    return network


def finetune(network, args):
    pretrained = torch.load(args.pretrained)  # expect: ML011
    network.load_weights(pretrained)
    return network


def settings(args):
    checkpoint = torch.load(args.config_checkpoint)  # preview: ML011
    return load_config(checkpoint)


def restored(net, args):
    checkpoint = torch.load(args.restore_checkpoint)  # preview: ML011
    restore(net, checkpoint)
    return net


def evaluate(net, args):
    checkpoint = torch.load(args.evaluate_checkpoint)  # expect: ML011
    return Evaluator(net, checkpoint).prepare()


def report(args):
    checkpoint = torch.load(args.report_checkpoint)  # preview: ML011
    return Reporter(checkpoint).epochs()

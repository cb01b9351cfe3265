# Loads handed to a function or a method of this file that puts its parameter, or a part of it,
# into `load_state_dict`: state dicts, by the callee's body, whatever the names say.
import torch


def load_pretrained_model(net, state):
    net.load_state_dict({k.replace("module.", ""): v for k, v in state.items()})


class Network(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(4, 4)

    def load_weights(self, weights):
        self.body.load_state_dict(weights)

    def restore(self, path):
        self.load_weights(torch.load(path, map_location="cpu"))  # expect: ML011


def build(args):
    snet = Network()
    checkpoint = torch.load(args.pretrained, map_location="cpu")  # expect: ML011
    load_pretrained_model(snet, checkpoint["net"])
    network = Network()
    model_weights = torch.load(args.weights, map_location="cpu")  # expect: ML011
    network.load_weights(model_weights)
    return snet, network

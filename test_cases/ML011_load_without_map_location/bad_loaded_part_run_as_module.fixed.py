# The twins of good_loaded_config_builds_a_class.py: what is run is a part of the load itself
# (`payload["model"]`), or a wrapper handed the load whole: a pickled model, which lands on the device
# it was saved from.
import torch


def main(checkpoint, batch):
    payload = torch.load(open(checkpoint, "rb"), map_location="cpu")  # expect: ML011
    net = payload["model"]
    net.train()
    return net(batch).sum().backward()


def wrapped(checkpoint, batch):
    # the load itself handed whole to a wrapper run as a module: the wrapper runs what was loaded
    net = torch.load(checkpoint, map_location="cpu")  # expect: ML011
    model = torch.nn.DataParallel(net)
    model.train()
    return model(batch).sum().backward()

# The twin of good_loaded_config_builds_a_class.py: what is run is a part of the load itself
# (`payload["model"]`), a pickled model, which lands on the device it was saved from.
import torch


def main(checkpoint, batch):
    payload = torch.load(open(checkpoint, "rb"), map_location="cpu")  # expect: ML011
    net = payload["model"]
    net.train()
    return net(batch).sum().backward()

# Linted as one project with utils.py.
import torch

from utils import load_from_pth, read_cache


def resnet18(pretrained=False):
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU())
    if pretrained:
        net.load_state_dict(load_from_pth("https://example.org/resnet18.pth", "resnet18"))
    return net


def features(checkpoint_dir):
    return read_cache(checkpoint_dir)["features"]

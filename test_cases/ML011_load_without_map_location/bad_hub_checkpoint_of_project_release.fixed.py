# A model zoo downloads its own released checkpoints (not torch's published weights) with
# `torch.hub.load_state_dict_from_url`, which hands its `map_location` (None) to `torch.load`:
# a checkpoint saved from a GPU comes back onto that GPU (pytorchvideo's hub builders, before their fix).
import torch
from torch.hub import load_state_dict_from_url

root_dir = "https://dl.fbaipublicfiles.com/pytorchvideo/model_zoo"
checkpoint_paths = {"slow_r50": f"{root_dir}/kinetics/SLOW_8x8_R50.pyth"}


def slow_r50(pretrained=False, progress=True):
    model = torch.nn.Sequential(torch.nn.Conv3d(3, 8, 3), torch.nn.ReLU())
    if pretrained:
        path = checkpoint_paths["slow_r50"]
        checkpoint = load_state_dict_from_url(path, progress=progress, map_location="cpu")  # expect: ML011
        state_dict = checkpoint["model_state"]
        model.load_state_dict(state_dict)
    return model


def slow_r50_from_zoo(progress=True):
    model = torch.nn.Sequential(torch.nn.Conv3d(3, 8, 3), torch.nn.ReLU())
    model.load_state_dict(torch.utils.model_zoo.load_url(checkpoint_paths["slow_r50"], map_location="cpu"))  # expect: ML011
    return model


def _slowfast(pretrained=False, progress=True, checkpoint_path=""):
    model = torch.nn.Sequential(torch.nn.Conv3d(3, 8, 3), torch.nn.ReLU())
    if pretrained:
        checkpoint = load_state_dict_from_url(checkpoint_path, progress=progress, map_location="cpu")  # expect: ML011
        model.load_state_dict(checkpoint["model_state"])
    return model


def slowfast_r50(pretrained=False):
    return _slowfast(pretrained=pretrained, checkpoint_path=checkpoint_paths["slow_r50"])

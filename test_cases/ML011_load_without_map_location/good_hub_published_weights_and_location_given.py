# torchvision's model builders fetch torch's published weights (download.pytorch.org), state dicts of
# CPU tensors, from a table of URLs; a project's own release is fetched with `map_location="cpu"`;
# a download called only to fill the cache drops what it loads.
import torch
from torch.hub import load_state_dict_from_url

model_urls = {
    "resnet18": "https://download.pytorch.org/models/resnet18-f37072fd.pth",
    "resnet34": "https://download.pytorch.org/models/resnet34-b627a593.pth",
}


def resnet(arch, pretrained=False, progress=True):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU())
    if pretrained:
        state_dict = load_state_dict_from_url(model_urls[arch], progress=progress)
        model.load_state_dict(state_dict)
    return model


def release(url, device):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU())
    model.load_state_dict(load_state_dict_from_url(url, map_location="cpu"))
    model.load_state_dict(torch.hub.load_state_dict_from_url(url, None, device))
    return model


def prefetch(url, folder):
    torch.hub.load_state_dict_from_url(url, folder)

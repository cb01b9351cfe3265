# Forward hooks whose outputs keep no graph, or do not pile up: the module runs only under `no_grad`
# (feature extraction: its features are still collected on the device), the hook moves what it keeps off the device without its graph, the hook keeps one
# slot that each forward replaces, and the list is emptied every step.
import torch

features = []
moved = []
collected = []


def save_output(module, inputs, output):
    features.append(output)  # expect: ML005 (no graph under `no_grad`; the features stay on the device)


def save_moved(module, inputs, output):
    moved.append(output.detach().cpu())


def save_collected(module, inputs, output):
    collected.append(output)


def extract(model, loader):
    model.layer4.register_forward_hook(save_output)
    with torch.no_grad():
        for x in loader:
            model(x)
    return torch.cat(features)


def train(net, loader, optimizer):
    net.layer4.register_forward_hook(save_moved)
    for x, y in loader:
        torch.nn.functional.cross_entropy(net(x), y).backward()
        optimizer.step()


def train_with_aux(backbone, loader, optimizer):
    backbone.head.register_forward_hook(save_collected)
    for x in loader:
        loss = backbone(x).mean() + sum(c.pow(2).mean() for c in collected)
        loss.backward()
        optimizer.step()
        collected.clear()


class Probe:
    def __init__(self, model):
        self.model = model
        self.last = None
        model.encoder.register_forward_hook(self.keep_last)

    def keep_last(self, module, args, out):
        self.last = out

    def fit(self, loader, optimizer):
        for x in loader:
            (self.model(x).mean() + self.last.pow(2).mean()).backward()
            optimizer.step()

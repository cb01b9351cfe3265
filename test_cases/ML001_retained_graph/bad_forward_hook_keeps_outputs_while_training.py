# A forward hook runs after every forward of the module it is registered on, handed the module's
# output with the graph the forward recorded. Kept in a list that outlives the step, every training
# step's output stays on the device.
import torch

features = []


def save_output(module, inputs, output):
    features.append(output)  # expect: ML001


def train(model, loader, optimizer):
    model.layer4.register_forward_hook(save_output)
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


class Recorder:
    def __init__(self, model):
        self.model = model
        self.outputs = []
        model.encoder.register_forward_hook(self.record)

    def record(self, module, args, out):
        self.outputs.append(out)  # expect: ML001

    def fit(self, loader, optimizer):
        for x in loader:
            self.model(x).mean().backward()
            optimizer.step()

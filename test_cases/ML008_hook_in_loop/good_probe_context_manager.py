# The probe is a context manager whose __exit__ removes the hook.
import torch


class FeatureCapture:
    def __init__(self, module):
        self.features = None
        self.handle = module.register_forward_hook(self.capture)

    def capture(self, module, inputs, output):
        self.features = output.detach()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.remove()


def train(model, loader, optimizer):
    for x, y in loader:
        with FeatureCapture(model[0]) as capture:
            loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(capture.features.norm().item())

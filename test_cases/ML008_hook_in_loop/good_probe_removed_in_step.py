# The probe built every step removes its hook in the same step.
import torch


class GradNormProbe:
    def __init__(self, model):
        self.handle = model.register_full_backward_hook(self.on_backward)
        self.norms = []

    def on_backward(self, module, grad_input, grad_output):
        self.norms.append(grad_output[0].norm().item())

    def remove(self):
        self.handle.remove()


def train(model, loader, optimizer):
    for x, y in loader:
        probe = GradNormProbe(model)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        probe.remove()

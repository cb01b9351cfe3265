# The probe can remove its hook, but the training step never calls remove(): the hooks pile up.
import torch


class GradNormProbe:
    def __init__(self, model):
        self.model = model
        self.handle = self.model.register_full_backward_hook(self.on_backward)
        self.norms = []

    def on_backward(self, module, grad_input, grad_output):
        self.norms.append(grad_output[0].norm())

    def remove(self):
        self.handle.remove()


def train(model, loader, optimizer):
    for x, y in loader:
        probe = GradNormProbe(model)  # expect: ML008
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(sum(probe.norms))

# The probe is built once, before the training loop: one hook for the whole run.
import torch


class ActivationStats:
    def __init__(self, module):
        self.mean = 0.0
        module.register_forward_hook(self.update)

    def update(self, module, inputs, output):
        self.mean = 0.9 * self.mean + 0.1 * output.detach().mean().item()


def train(model, loader, optimizer):
    stats = ActivationStats(model)
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return stats.mean

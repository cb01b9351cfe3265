# A function that switches the model to eval mode to read a statistic, back to train mode, and then
# runs its forward for the caller's backward.
import torch


def forward_for_loss(model, x, y):
    model.eval()
    n_parameters = sum(p.numel() for p in model.parameters())
    model.train()
    return torch.nn.functional.mse_loss(model(x), y) + 0.0 * n_parameters

# The look-alikes: methods of models in eval mode that compute nothing with autograd in the step: a
# module's own API (`state_dict`), a method declared `@torch.no_grad()` where it is defined, and an EMA
# copy's `update(model)` whose result nothing keeps; and a trainer module that puts itself in eval mode
# between epochs, whose `self.model(x)` runs the trained submodule (an attribute, not a method).
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)

    @torch.no_grad()
    def encode(self, x):
        mean, logvar = self.enc(x).chunk(2, dim=1)
        return mean + torch.randn_like(mean) * (0.5 * logvar).exp()


class EMA(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.shadow = {k: v.detach().clone() for k, v in model.state_dict().items()}

    def update(self, model, decay=0.999):
        for k, v in model.state_dict().items():
            self.shadow[k].mul_(decay).add_(v.detach(), alpha=1 - decay)


def train(loader, device="cuda"):
    vae = VAE().to(device)
    vae.eval()
    denoiser = nn.Conv2d(4, 4, 3, padding=1).to(device)
    ema = EMA(denoiser)
    ema.eval()
    optimizer = torch.optim.AdamW(denoiser.parameters(), lr=1e-4)
    for images in loader:
        latents = vae.encode(images.to(device))
        snapshot = vae.state_dict()
        noise = torch.randn_like(latents)
        loss = F.mse_loss(denoiser(latents + noise), noise)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        ema.update(denoiser)
    return snapshot


class Trainer(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def fit(self, loader, epochs):
        for epoch in range(epochs):
            for x, y in loader:
                loss = F.mse_loss(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            self.evaluate()

    def evaluate(self):
        self.eval()

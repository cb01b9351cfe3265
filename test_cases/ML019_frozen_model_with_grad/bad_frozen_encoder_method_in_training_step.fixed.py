# A latent-diffusion step encodes the images with the VAE's `encode` method and a CLIP-like teacher's
# `encode_image`: methods of models in eval mode and in no optimizer, computing on the batch with autograd
# on, so each records a graph over the frozen model's activations.
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 3, padding=1)
        self.dec = nn.Conv2d(4, 3, 3, padding=1)

    def encode(self, x):
        mean, logvar = self.enc(x).chunk(2, dim=1)
        return mean + torch.randn_like(mean) * (0.5 * logvar).exp()


class Teacher(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(3 * 32 * 32, 128)

    def encode_image(self, x):
        return F.normalize(self.proj(x.flatten(1)), dim=-1)


def train(loader, device="cuda"):
    vae = VAE().to(device)
    vae.eval()
    teacher = Teacher().to(device)
    teacher.eval()
    denoiser = nn.Conv2d(4, 4, 3, padding=1).to(device)
    head = nn.Linear(4 * 32 * 32, 128).to(device)
    optimizer = torch.optim.AdamW([*denoiser.parameters(), *head.parameters()], lr=1e-4)
    for images in loader:
        images = images.to(device)
        with torch.no_grad():
            latents = vae.encode(images)  # expect: ML019
        with torch.no_grad():
            target = teacher.encode_image(images)  # expect: ML019
        noise = torch.randn_like(latents)
        pred = denoiser(latents + noise)
        loss = F.mse_loss(pred, noise) + (1 - (F.normalize(head(pred.flatten(1)), dim=-1) * target).sum(-1)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

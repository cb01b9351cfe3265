# A GAN: the discriminator is switched to eval for a moment but has its own optimizer.
import torch


def train(generator, discriminator, loader, g_opt):
    d_opt = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
    discriminator.eval()
    for real, noise in loader:
        score = discriminator(real)
        d_loss = -score.mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()

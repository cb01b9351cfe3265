# WGAN-GP layout (PyTorch-GAN's wgan_gp.py): the generator's zero_grad runs every iteration, before the
# `if i % n_critic == 0:` branch that holds the generator's own backward and step; the backward that runs
# on every iteration is the critic's. Nothing accumulates for the generator.
import torch


def train(generator, critic, loader, opt_g, opt_d, n_critic=5):
    for i, real in enumerate(loader):
        opt_d.zero_grad()
        fake = generator(torch.randn(real.shape[0], 100))
        d_loss = critic(fake.detach()).mean() - critic(real).mean()
        d_loss.backward()
        opt_d.step()

        opt_g.zero_grad()

        if i % n_critic == 0:
            g_loss = -critic(generator(torch.randn(real.shape[0], 100))).mean()
            g_loss.backward()
            opt_g.step()

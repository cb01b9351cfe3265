# The look-alike: the sampler derives from the VAE and only ever runs its `test` (which calls
# `model_eval` on itself) under `torch.no_grad()`; the VAE's own `test` is never called with grad.
import torch


class VAE:
    def __init__(self, encoder, decoder, test_loader):
        self.encoder, self.decoder = encoder, decoder
        self.test_loader = test_loader

    def model_eval(self, x):
        z_mean, z_var = self.encoder(x)
        return self.decoder(z_mean), z_mean, z_var

    def test(self):
        images = []
        for x, _ in self.test_loader:
            images.append(self.model_eval(x)[0].cpu())
        return images


class Sampler(VAE):
    def sample(self):
        with torch.no_grad():
            return self.test()

# The VAE's test loop runs its own `model_eval` with grad on and keeps the reconstructions; a sampler
# class of the same file has a `test` and a `model_eval` too, which it runs under `torch.no_grad()`.
# That says nothing of the VAE's methods: `self` in the sampler's `sample` is never a VAE.
import torch


class VAE:
    def __init__(self, encoder, decoder, test_loader):
        self.encoder, self.decoder = encoder, decoder
        self.test_loader = test_loader

    @torch.no_grad()
    def model_eval(self, x):
        z_mean, z_var = self.encoder(x)  # expect: ML003
        return self.decoder(z_mean), z_mean, z_var  # expect: ML003

    def test(self):
        images = []
        for x, _ in self.test_loader:
            images.append(self.model_eval(x)[0].cpu().detach())  # expect: ML001
        return images


class Sampler:
    def __init__(self, decoder, latent):
        self.decoder = decoder
        self.latent = latent

    def model_eval(self, x):
        return self.decoder(x)

    def test(self):
        return [self.model_eval(z).cpu() for z in self.latent]

    def sample(self):
        with torch.no_grad():
            return self.test()

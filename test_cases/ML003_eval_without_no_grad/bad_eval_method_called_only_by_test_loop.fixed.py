# The same `model_eval`, called only by the test loop, with grad on: every test batch saves the
# encoder's and decoder's activations for a backward that never comes.
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

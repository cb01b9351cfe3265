# A forward pass named `model_eval` that the training step differentiates and the test loop runs
# under `torch.no_grad()` (pyro's vae_comparison): the callers choose the grad mode, it is not
# evaluation code of its own.
import torch
import torch.nn.functional as F


class VAE:
    def __init__(self, encoder, decoder, optimizer, train_loader, test_loader):
        self.encoder, self.decoder, self.optimizer = encoder, decoder, optimizer
        self.train_loader, self.test_loader = train_loader, test_loader

    def model_eval(self, x):
        z_mean, z_var = self.encoder(x)
        return self.decoder(z_mean), z_mean, z_var

    def compute_loss_and_gradient(self, x):
        self.optimizer.zero_grad()
        recon_x, z_mean, z_var = self.model_eval(x)
        loss = F.binary_cross_entropy(recon_x, x) - 0.5 * torch.sum(1 + z_var.log() - z_mean.pow(2) - z_var)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def train(self):
        total = 0.0
        for x, _ in self.train_loader:
            total += self.compute_loss_and_gradient(x)
        return total

    def test(self):
        images = []
        for x, _ in self.test_loader:
            with torch.no_grad():
                images.append(self.model_eval(x)[0].cpu())
        return images

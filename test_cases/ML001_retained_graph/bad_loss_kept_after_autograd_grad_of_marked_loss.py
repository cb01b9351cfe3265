# Latent guidance (diffusers' attend-and-excite): `_update_latent` differentiates the loss it is
# handed with `torch.autograd.grad(loss.requires_grad_(True), ...)`, and `requires_grad_` returns the
# loss itself, so the loss computed from each latent is differentiated: the updated latents the loop
# keeps hold a graph skeleton, not activations never backwarded.
import torch


class Pipe:
    @staticmethod
    def _update_latent(latents, loss, step_size):
        grad_cond = torch.autograd.grad(loss.requires_grad_(True), [latents], retain_graph=True)[0]
        latents = latents - step_size * grad_cond
        return latents

    @torch.no_grad()
    def __call__(self, latents, timesteps, embeddings):
        for i, t in enumerate(timesteps):
            with torch.enable_grad():
                latents = latents.clone().detach().requires_grad_(True)
                updated_latents = []
                for latent, emb in zip(latents, embeddings):
                    latent = latent.unsqueeze(0)
                    out = self.unet(latent, t, emb).sample
                    loss = out.mean()
                    latent = self._update_latent(latents=latent, loss=loss, step_size=0.1)
                    updated_latents.append(latent)  # expect: ML001
                latents = torch.cat(updated_latents, dim=0)
            latents = self.unet(latents, t, embeddings).sample
        return latents

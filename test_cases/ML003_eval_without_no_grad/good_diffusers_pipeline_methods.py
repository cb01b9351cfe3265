# A diffusers pipeline subclass whose inference method is decorated like the pipeline's own
# `__call__`, whose score-distillation method differentiates through the UNet on purpose, and
# whose private UNet helper is handed as a callback to code that runs it under inference mode.
import torch
from diffusers import StableDiffusionPipeline


class GuidedPipeline(StableDiffusionPipeline):
    @torch.no_grad()
    def embed(self, prompt):
        return self.text_encoder(self.tokenizer(prompt, return_tensors="pt").input_ids)[0]

    def score_distillation(self, latents, embeds, t):
        latents = latents.detach().requires_grad_(True)
        noise = torch.randn_like(latents)
        noisy = self.scheduler.add_noise(latents, noise, t)
        predicted = self.unet(noisy, t, encoder_hidden_states=embeds).sample
        loss = ((predicted - noise) ** 2).mean()
        (grad,) = torch.autograd.grad(loss, latents)
        return grad

    def _unet_forward(self, latents, t, embeds):
        return self.unet(latents, t, encoder_hidden_states=embeds).sample

    @torch.inference_mode()
    def denoise(self, latents, embeds, guidance):
        return guidance.run(latents, embeds, self.scheduler.timesteps, model_forward=self._unet_forward)

# diffusers decorates its pipelines' `__call__` with `@torch.no_grad()`, but a method a pipeline
# subclass adds runs the pipeline's modules with grad on: every denoising step records a graph.
import torch
from diffusers import StableDiffusionPipeline


class InterpolationPipeline(StableDiffusionPipeline):
    def interpolate(self, prompt_a, prompt_b, steps=8, num_inference_steps=30):
        embeds_a = self.text_encoder(self.tokenizer(prompt_a, return_tensors="pt").input_ids)[0]  # expect: ML003
        embeds_b = self.text_encoder(self.tokenizer(prompt_b, return_tensors="pt").input_ids)[0]  # expect: ML003
        images = []
        for alpha in torch.linspace(0, 1, steps):
            embeds = torch.lerp(embeds_a, embeds_b, alpha)
            latents = torch.randn(1, 4, 64, 64)
            self.scheduler.set_timesteps(num_inference_steps)
            for t in self.scheduler.timesteps:
                noise = self.unet(latents, t, encoder_hidden_states=embeds).sample  # expect: ML003
                latents = self.scheduler.step(noise, t, latents).prev_sample
            images.append(self.vae.decode(latents / 0.18215).sample)
        return images

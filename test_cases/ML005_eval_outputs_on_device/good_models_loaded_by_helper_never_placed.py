# The evaluation scores generated images with CLIP models that a helper of the file loads with
# `from_pretrained` (on the CPU) and never moves, fed the processor's host tensors: the embeddings
# it collects are on the host.
import torch
from transformers import CLIPProcessor, CLIPTokenizer, CLIPTextModelWithProjection, CLIPVisionModelWithProjection

PROMPTS = ["a photo of <obj>", "a painting of <obj>", "<obj> on the beach"]


def load_clip(clip_id="openai/clip-vit-large-patch14"):
    text_model = CLIPTextModelWithProjection.from_pretrained(clip_id)
    tokenizer = CLIPTokenizer.from_pretrained(clip_id)
    vision_model = CLIPVisionModelWithProjection.from_pretrained(clip_id)
    processor = CLIPProcessor.from_pretrained(clip_id)
    return text_model, tokenizer, vision_model, processor


@torch.no_grad()
def evaluate_pipe(pipe, token, clip_id="openai/clip-vit-large-patch14"):
    text_model, tokenizer, vision_model, processor = load_clip(clip_id)
    image_embeds = []
    text_embeds = []
    for prompt in PROMPTS:
        prompt = prompt.replace("<obj>", token)
        image = pipe(prompt, num_inference_steps=50).images[0]
        inputs = processor(images=image, return_tensors="pt")
        image_embeds.append(vision_model(**inputs).image_embeds)
        inputs = tokenizer([prompt], padding=True, return_tensors="pt")
        text_embeds.append(text_model(**inputs).text_embeds)
    image_embeds = torch.cat(image_embeds)
    text_embeds = torch.cat(text_embeds)
    return torch.nn.functional.cosine_similarity(image_embeds, text_embeds).mean().item()

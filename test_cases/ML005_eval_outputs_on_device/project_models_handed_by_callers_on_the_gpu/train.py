# Linted as one project with clip_eval.py: the training loop loads the CLIP models once, moves them
# to the GPU, and hands them to every evaluation, under `no_grad`.
import torch

from clip_eval import evaluate_pipe, load_clip


def load_clip_on_gpu():
    text_model, tokenizer, vision_model, processor = load_clip()
    return text_model.cuda(), tokenizer, vision_model.cuda(), processor


def train(pipe, unet, optimizer, loader, token, log_every=100):
    clip_models = load_clip_on_gpu()
    for step, batch in enumerate(loader):
        loss = unet(batch).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % log_every == 0:
            with torch.no_grad():
                print(evaluate_pipe(pipe, token, clip_models=clip_models))

# Linted as one project with clip_eval.py: the training loop loads the CLIP models once and hands
# them to every evaluation, under `no_grad`.
import torch

from clip_eval import evaluate_pipe, load_clip


def train(pipe, unet, optimizer, loader, token, log_every=100):
    clip_models = load_clip()
    for step, batch in enumerate(loader):
        loss = unet(batch).mean()
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if step % log_every == 0:
            with torch.no_grad():
                print(evaluate_pipe(pipe, token, clip_models=clip_models))

# Linted as one project with evaluate.py: helpers that run the model they are handed.
import torch


def score_batch(model, batch):
    logits = model(batch["x"])
    return (logits.argmax(-1) == batch["y"]).float().mean()


def score_batch_no_grad(model, batch):
    with torch.no_grad():
        logits = model(batch["x"])
    return (logits.argmax(-1) == batch["y"]).float().mean()


def train_batch(model, batch, optimizer):
    loss = model(batch["x"]).mean()
    loss.backward()
    optimizer.step()
    return loss.item()


def log_batch(batch):
    return {key: value.shape for key, value in batch.items()}

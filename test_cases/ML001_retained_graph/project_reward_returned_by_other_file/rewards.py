# Linted as one project with train.py: what these helpers return is a fact the trainer's analysis reads.
import torch


def get_reward(model, batch):
    return model(batch)


def compute_loss(logits, labels):
    return torch.nn.functional.cross_entropy(logits, labels).item()

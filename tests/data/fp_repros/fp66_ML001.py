# Reduced from a DeepSpeed pretraining loop: each micro-batch's loss is backwarded by a helper of the same
# file that hands it to the engine (`model.backward(loss)`, DeepSpeed's engine differentiates its
# argument), so the list keeps losses whose graphs are freed, not "never backwarded" ones.
import torch
from collections import defaultdict


def forward_step(model, data_iterator):
    outputs = model(next(data_iterator))
    loss = outputs.mean()
    metrics = {"margin": (outputs - 1).clone().detach().mean()}
    return loss, metrics


def backward_step(neox_args, model, loss):
    if neox_args.deepspeed:
        model.backward(loss)
    else:
        raise ValueError("Must be using deepspeed")


def train_step(neox_args, data_iterator, model):
    losses = []
    metric_dicts = defaultdict(list)
    for _ in range(neox_args.gradient_accumulation_steps):
        loss, metric_dict = forward_step(model=model, data_iterator=data_iterator)
        losses.append(loss)
        for key in metric_dict.keys():
            metric_dicts[key].append(metric_dict[key])
        backward_step(neox_args=neox_args, model=model, loss=loss)
        model.step()
    return torch.stack(losses).mean()

# The step returns (loss, metrics), or (loss, logits, metrics) when asked for logits: a call unpacked into
# two names receives the pair, whose metrics are detached, never the logits with their graph.
import torch
from collections import defaultdict


def forward_step(model, data_iterator, return_logits=False):
    outputs = model(next(data_iterator))
    loss = outputs.mean()
    metrics = {}
    with torch.no_grad():
        metrics["margin"] = (outputs - 1).clone().detach().mean()
    if return_logits:
        return loss, outputs, metrics
    return loss, metrics


def train_step(args, data_iterator, model, optimizer):
    losses = []
    metric_dicts = defaultdict(list)
    for _ in range(args.gradient_accumulation_steps):
        loss, metric_dict = forward_step(model=model, data_iterator=data_iterator)
        losses.append(loss.item())
        for key in metric_dict.keys():
            metric_dicts[key].append(metric_dict[key])
        loss.backward()
    optimizer.step()
    return metric_dicts

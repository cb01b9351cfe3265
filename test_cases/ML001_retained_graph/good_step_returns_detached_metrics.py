# The step returns (loss, metrics); every metric is built under no_grad with .detach(), so the
# metrics kept per step carry no graph (reduced from gpt-neox's train_step; its twin is
# bad_step_returns_metrics_with_graph.py). The summary of `forward_step` says element 1 has none.
from collections import defaultdict

import torch


def forward_step(model, batch):
    out = model(batch)
    metrics = {}
    with torch.no_grad():
        metrics["margin"] = out.clone().detach().mean()
    return out.mean(), metrics


def train(model, optimizer, batches):
    metric_dicts = defaultdict(list)
    for batch in batches:
        loss, metric_dict = forward_step(model, batch)
        for key in metric_dict.keys():
            metric_dicts[key].append(metric_dict[key])
        loss.backward()
        optimizer.step()
    return metric_dicts

# The step returns (loss, metrics) and one metric is computed with grad: the metrics dict kept per
# step holds the graph of every step (element 1 of `forward_step`'s return carries history).
from collections import defaultdict


def forward_step(model, batch):
    out = model(batch)
    metrics = {"margin": out.mean() * 2}
    return out.mean(), metrics


def train(model, optimizer, batches):
    metric_dicts = defaultdict(list)
    for batch in batches:
        loss, metric_dict = forward_step(model, batch)
        for key in metric_dict.keys():
            metric_dicts[key].append(metric_dict[key])  # expect: ML001
        loss.backward()
        optimizer.step()
    return metric_dicts

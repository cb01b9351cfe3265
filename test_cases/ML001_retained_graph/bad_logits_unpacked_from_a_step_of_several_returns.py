# The same step, called for its logits: unpacked into three names, the middle one is the model's output
# with its graph, kept from every micro-batch while only the loss is backwarded.
import torch


def forward_step(model, batch, return_logits=False):
    outputs = model(batch)
    loss = outputs.mean()
    metrics = {}
    with torch.no_grad():
        metrics["margin"] = (outputs - 1).clone().detach().mean()
    if return_logits:
        return loss, outputs, metrics
    return loss, metrics


def train_step(model, micro_batches, optimizer):
    all_logits = []
    for batch in micro_batches:
        loss, logits, metric_dict = forward_step(model, batch, return_logits=True)
        all_logits.append(logits)  # expect: ML001
        loss.backward()
    optimizer.step()
    return all_logits

# `for task in data: ... data[task]`: the tasks of one batch, not a loop over batches; the losses
# collected in it are summed and backwarded by the caller in the same step.
def multitask_loss(model, data, heads):
    losses = {}
    for task in data:
        losses[task] = heads[task](model(data[task]["x"]), data[task]["y"])
    return sum(losses.values())


def train(model, loader, optimizer, heads):
    for data in loader:
        loss = multitask_loss(model, data, heads)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

# Each step moves the parts of its own batch to the device in place (`data[i] = data[i].cuda()`), then runs
# the model on them: the loop over `range(len(data))` goes over the parts of one batch, within the step of
# the loop around it, which runs the model on its item; the loader makes a new batch for every step, so
# nothing is kept from one step to the next, whatever the batch is called.
import torch


def train_model(model, optimizer, criterion, loader):
    for it, data in enumerate(loader):
        if torch.cuda.is_available():
            for i in range(len(data)):
                try:
                    data[i] = data[i].cuda()
                except AttributeError:
                    pass
        label = data[0]
        args = data[1:]
        logits = model(*args)
        loss = criterion(logits, label)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()


@torch.no_grad()
def eval_model(model, loader):
    correct = 0
    for data in loader:
        for i in range(len(data)):
            data[i] = data[i].cuda()
        logits = model(*data[1:])
        correct += (logits.argmax(-1) == data[0]).sum().item()
    return correct

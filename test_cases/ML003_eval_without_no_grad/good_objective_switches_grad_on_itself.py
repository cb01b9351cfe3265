# A shared objective that puts the network in eval mode for validation but switches grad on itself
# right before the forward (`set_grad_enabled(True)`): the code asks for the graph, the training
# loop backwards what it returns.
import torch


def get_objective(inputs, labels, net, criterion, if_train):
    if if_train:
        net.train()
    else:
        net.eval()
    torch.set_grad_enabled(False)
    targets = labels.float()
    torch.set_grad_enabled(True)
    out = net.forward(inputs)
    return criterion(out, targets)

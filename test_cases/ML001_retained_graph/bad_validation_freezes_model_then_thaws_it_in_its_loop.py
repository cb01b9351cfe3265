# The validation function freezes every parameter before its loop, but the loop makes them require
# grad again at the end of each batch (to hand the model back trainable): from the second batch on
# the forward records its graph (evaluation with grad), and every loss the loop keeps holds it.
import torch
from torch import nn

net = Net()
criterion = nn.CTCLoss()
if use_cuda:
    net = nn.DataParallel(net).cuda()
    criterion = criterion.cuda()


def validate(loader):
    for p in net.parameters():
        p.requires_grad = False
    net.eval()
    losses = []
    for images, targets, lengths in loader:
        preds = net(images)  # expect: ML003
        cost = criterion(preds, targets, lengths, lengths)
        losses.append(cost)  # expect: ML001
        for p in net.parameters():
            p.requires_grad = True
    return losses

# The twin whose criterion, made at the top of the script, is a loss of a library this project
# cannot see into (`ctc_layers.LearnedCTC`): it may hold weights, so each kept loss may hold a graph.
import torch
from ctc_layers import LearnedCTC

criterion = LearnedCTC()
net = CRNN(32, 1, 37, 256).cuda()


def validate(loader):
    for p in net.parameters():
        p.requires_grad = False
    costs = []
    for images, targets, lengths in loader:
        preds = net(images.cuda())
        costs.append(criterion(preds, targets, lengths, lengths))  # expect: ML001
    return costs

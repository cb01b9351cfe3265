# The validation loop reads the criterion the script makes at the top (warp-ctc's CTC loss, which
# registers no parameter) and runs a network whose every parameter it froze first: the losses it
# keeps carry no graph.
import torch
from warpctc_pytorch import CTCLoss

criterion = CTCLoss()
net = CRNN(32, 1, 37, 256).cuda()


def validate(loader):
    for p in net.parameters():
        p.requires_grad = False
    costs = []
    for images, targets, lengths in loader:
        preds = net(images.cuda())
        costs.append(criterion(preds, targets, lengths, lengths))
    return costs

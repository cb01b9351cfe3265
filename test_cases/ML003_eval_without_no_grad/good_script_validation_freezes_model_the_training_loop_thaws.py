# A training script in the style of early PyTorch: the loop at the top level makes every parameter
# require grad before each step; the validation function turns it off for every parameter first,
# and its criterion, made and moved to the GPU at the top, is torch's CTC loss (no parameters). Its
# forward records no graph whatever the training loop did before calling it, and the losses it
# keeps carry none.
import torch
from torch import nn

crnn = CRNN(32, 1, 37, 256)
criterion = nn.CTCLoss()
image = torch.FloatTensor(64, 3, 32, 32)
if use_cuda:
    crnn.cuda()
    crnn = torch.nn.DataParallel(crnn)
    image = image.cuda()
    criterion = criterion.cuda()
optimizer = torch.optim.Adam(crnn.parameters())


def val(net, dataset, criterion, max_iter=100):
    for p in crnn.parameters():
        p.requires_grad = False
    net.eval()
    data_loader = torch.utils.data.DataLoader(dataset, batch_size=64)
    val_iter = iter(data_loader)
    costs = []
    for i in range(min(max_iter, len(data_loader))):
        cpu_images, targets, lengths = next(val_iter)
        image.resize_(cpu_images.size()).copy_(cpu_images)
        preds = crnn(image)
        cost = criterion(preds, targets, lengths, lengths) / cpu_images.size(0)
        costs.append(cost)
    return costs


for epoch in range(nepoch):
    train_iter = iter(train_loader)
    i = 0
    while i < len(train_loader):
        for p in crnn.parameters():
            p.requires_grad = True
        crnn.train()
        cpu_images, targets, lengths = next(train_iter)
        image.resize_(cpu_images.size()).copy_(cpu_images)
        cost = criterion(crnn(image), targets, lengths, lengths)
        crnn.zero_grad()
        cost.backward()
        optimizer.step()
        i += 1
        if i % 500 == 0:
            val(crnn, test_dataset, criterion)

# The twin whose validation function turns requires_grad off only after its loop (to hand the
# model on frozen): every batch's forward runs while the training loop's `requires_grad = True`
# still holds, records its graph for a backward that never comes, and the losses kept hold it.
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
    net.eval()
    data_loader = torch.utils.data.DataLoader(dataset, batch_size=64)
    val_iter = iter(data_loader)
    costs = []
    with torch.no_grad():
        for i in range(min(max_iter, len(data_loader))):
            cpu_images, targets, lengths = next(val_iter)
            image.resize_(cpu_images.size()).copy_(cpu_images)
            preds = crnn(image)  # expect: ML003
            cost = criterion(preds, targets, lengths, lengths) / cpu_images.size(0)
            costs.append(cost)  # expect: ML001
    for p in crnn.parameters():
        p.requires_grad = False
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

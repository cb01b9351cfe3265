# The twin of good_batch_parts_moved_in_place.py: the batches are held in a list built before the loop
# (`cached`), so moving a batch's parts to the device in place stores them into that list's element, kept
# for every later epoch.
import torch


def train_cached(model, optimizer, loader):
    cached = [list(batch) for batch in loader]
    for epoch in range(10):
        for data in cached:
            for i in range(len(data)):
                data[i] = data[i].cuda().detach().cpu()  # expect: ML005
            loss = model(*data).mean()
            loss.backward()
            optimizer.step()

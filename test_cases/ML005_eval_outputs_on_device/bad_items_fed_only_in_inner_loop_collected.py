# The twin of good_batch_parts_moved_in_place.py: the model runs only inside the loop over each item's
# parts, so that inner loop goes over the batches (the outer one over data sets), and what it collects
# into `preds` is kept from every batch.
import torch


def evaluate(model, datasets):
    preds = []
    with torch.no_grad():
        for data in datasets:
            for i in range(len(data)):
                preds.append(model(data[i].cuda()))  # expect: ML005
    return preds

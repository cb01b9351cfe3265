# Batch-size search: the handler only halves the size; the loop retries after the except block ends.
import torch


def find_batch_size(model, make_batch, batch_size=1024):
    while batch_size > 1:
        try:
            model(make_batch(batch_size)).sum().backward()
            return batch_size
        except torch.cuda.OutOfMemoryError:
            batch_size //= 2
            torch.cuda.empty_cache()
    return 1

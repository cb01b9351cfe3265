# A tuple of exceptions that includes the OOM error: the retry still runs inside the handler.
import torch


def evaluate_batch(model, batch):
    with torch.no_grad():
        try:
            logits = model(batch)
        except (torch.cuda.OutOfMemoryError, torch.OutOfMemoryError):
            logits = torch.cat([model(part) for part in batch.split(1)])  # expect: ML017
    return logits.argmax(-1)

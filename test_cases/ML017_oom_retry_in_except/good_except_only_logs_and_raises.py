# The handler reports and re-raises: nothing runs with the failed attempt's memory held.
import logging

import torch

logger = logging.getLogger(__name__)


def train_step(model, optimizer, batch):
    try:
        model(batch).mean().backward()
        optimizer.step()
    except torch.cuda.OutOfMemoryError:
        logger.error("out of memory at batch size %d", batch.shape[0])
        logger.error(torch.cuda.memory_summary())
        raise

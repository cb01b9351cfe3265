# A RuntimeError handler for another failure (a shape mismatch): not an out-of-memory recovery.
import torch


def forward(model, batch):
    try:
        return model(batch)
    except RuntimeError as e:
        if "size mismatch" in str(e):
            return model(batch.reshape(batch.shape[0], -1))
        raise

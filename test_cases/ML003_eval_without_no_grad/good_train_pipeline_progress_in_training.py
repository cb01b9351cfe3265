# torchrec's train pipeline trains the model it holds while the model is in training mode (`progress` runs
# backward and the optimizer step), and a pass under `torch.no_grad()` records no graph.
import torch
from torchrec.distributed import TrainPipelineSparseDist


def train_epoch(pipeline: TrainPipelineSparseDist, batches):
    pipeline._model.train()
    while True:
        try:
            pipeline.progress(batches)
        except StopIteration:
            break


def evaluate_in_training_mode(pipeline: TrainPipelineSparseDist, batches):
    # the model is left in training mode: each `progress` is a training step
    losses = []
    for _ in range(10):
        loss, _logits, _labels = pipeline.progress(batches)
        losses.append(loss.item())
    return losses


@torch.no_grad()
def evaluate(pipeline: TrainPipelineSparseDist, batches):
    pipeline._model.eval()
    scores = []
    for _ in range(10):
        _loss, logits, _labels = pipeline.progress(batches)
        scores.append(torch.sigmoid(logits))
    return torch.cat(scores)

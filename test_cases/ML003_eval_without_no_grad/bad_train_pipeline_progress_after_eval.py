# torchrec's `TrainPipelineSparseDist.progress` runs the model it holds on the next batch and trains it only
# in training mode: after `model.eval()` each call is a forward with grad on that nothing differentiates.
import torch
import torchmetrics
from torchrec.distributed import TrainPipelineSparseDist


def run_validation(pipeline: TrainPipelineSparseDist, batches):
    model = pipeline._model
    model.eval()
    auroc = torchmetrics.AUROC(task="binary")
    while True:
        try:
            _loss, logits, labels = pipeline.progress(batches)  # expect: ML003
        except StopIteration:
            break
        auroc(torch.sigmoid(logits), labels)
    return auroc.compute().item()

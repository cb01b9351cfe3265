# The fixed prediction callback: what it keeps is moved to the host as it arrives.
from lightning.pytorch.callbacks import BasePredictionWriter


class PredictionCollector(BasePredictionWriter):
    def __init__(self):
        super().__init__(write_interval="batch")
        self.predictions = []
        self.targets = []

    def write_on_batch_end(self, trainer, pl_module, prediction, batch_indices, batch, batch_idx, dataloader_idx):
        x, y = batch
        self.predictions.append(prediction.cpu())
        self.targets.append(y.detach().cpu())

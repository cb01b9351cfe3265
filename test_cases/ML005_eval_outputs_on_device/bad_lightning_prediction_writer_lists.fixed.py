# A Lightning prediction callback keeps every batch's prediction and target on the device:
# Lightning calls write_on_batch_end once per predict batch (pytorch-forecasting issue 2224).
from lightning.pytorch.callbacks import BasePredictionWriter


class PredictionCollector(BasePredictionWriter):
    def __init__(self):
        super().__init__(write_interval="batch")
        self.predictions = []
        self.targets = []

    def write_on_batch_end(self, trainer, pl_module, prediction, batch_indices, batch, batch_idx, dataloader_idx):
        x, y = batch
        self.predictions.append(prediction.detach().cpu())  # expect: ML005
        self.targets.append(y.detach().cpu())  # expect: ML005

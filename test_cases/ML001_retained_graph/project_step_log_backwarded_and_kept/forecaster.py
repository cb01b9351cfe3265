# Linted as one project with metrics.py and utils.py: `step` builds a log dict whose "loss" is the
# loss module's result, and `training_step` both returns it (Lightning backwards its "loss") and
# appends it to a list kept until the epoch ends (pytorch-forecasting before PR 1924). The leak is
# at the append: detaching the entry where `step` builds the dict would detach the loss Lightning
# backwards. `DetachedForecaster` keeps a copy detached by a helper of another file.
import lightning.pytorch as pl

from metrics import MAE
from utils import detach


class Forecaster(pl.LightningModule):
    def __init__(self, network):
        super().__init__()
        self.network = network
        self.loss = MAE()
        self.training_step_outputs = []

    def step(self, x, y):
        prediction = self.network(x)
        loss = self.loss(prediction, y)
        log = {"loss": loss, "n_samples": x.size(0)}
        return log, prediction

    def training_step(self, batch, batch_idx):
        x, y = batch
        log, out = self.step(x, y)
        self.training_step_outputs.append(log)  # expect: ML001
        return log

    def on_train_epoch_end(self):
        self.training_step_outputs.clear()


class DetachedForecaster(Forecaster):
    def training_step(self, batch, batch_idx):
        x, y = batch
        log, out = self.step(x, y)
        self.training_step_outputs.append(detach(log))
        return log

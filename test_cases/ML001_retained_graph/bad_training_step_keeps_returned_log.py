# A LightningModule's `training_step` returns its log dict, whose "loss" Lightning backwards, and also
# appends that dict to a list on `self` for the epoch end: every step's graph stays alive until the
# epoch ends (pytorch-forecasting PR 1924). The loss comes from a metric object of another file, so
# only the return says it has history.
import lightning.pytorch as pl


class Forecaster(pl.LightningModule):
    def __init__(self, network, loss):
        super().__init__()
        self.network = network
        self.loss = loss
        self.training_step_outputs = []

    def step(self, x, y):
        prediction = self.network(x)
        return {"loss": self.loss(prediction, y), "n_samples": x.size(0)}, prediction

    def training_step(self, batch, batch_idx):
        x, y = batch
        log, out = self.step(x, y)
        self.training_step_outputs.append(log)  # expect: ML001
        return log

    def on_train_epoch_end(self):
        self.training_step_outputs.clear()

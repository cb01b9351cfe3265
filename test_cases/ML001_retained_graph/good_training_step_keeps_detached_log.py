# The same `training_step` keeps a copy of its log with the loss detached; the dict it returns, for
# Lightning to backward, is not kept.
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
        self.training_step_outputs.append({"loss": log["loss"].detach(), "n_samples": log["n_samples"]})
        return log

    def on_train_epoch_end(self):
        self.training_step_outputs.clear()

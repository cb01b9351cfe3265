# Manual optimization: Lightning does not backward what `training_step` returns, and this one returns
# a dict of Python numbers that it also keeps.
import lightning.pytorch as pl


class Forecaster(pl.LightningModule):
    def __init__(self, network, loss):
        super().__init__()
        self.automatic_optimization = False
        self.network = network
        self.loss = loss
        self.training_step_outputs = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        optimizer = self.optimizers()
        loss = self.loss(self.network(x), y)
        optimizer.zero_grad()
        self.manual_backward(loss)
        optimizer.step()
        log = {"loss": loss.item(), "n_samples": x.size(0)}
        self.training_step_outputs.append(log)
        return log

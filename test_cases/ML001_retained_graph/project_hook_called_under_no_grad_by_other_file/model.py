# Linted as one project with check.py, whose smoke test calls `training_step` under torch.no_grad().
# Lightning runs it too, every step with grad on: that run is no call the project shows, so the
# loss it keeps on `self` keeps its graph, whatever the test's call says.
import lightning as L


class Classifier(L.LightningModule):
    def __init__(self, net, criterion):
        super().__init__()
        self.net = net
        self.criterion = criterion
        self.losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = self.criterion(self.net(x), y)
        self.losses.append(loss)  # expect: ML001
        return loss

# `Trainer.predict` keeps every `predict_step` return, but it runs the step without grad: the
# outputs carry no graph.
from lightning.pytorch import LightningModule, Trainer


class Predictor(LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        results = self(batch)
        return results


def predict(model, loader):
    return Trainer().predict(Predictor(model), loader)


class DirectPredictor(LightningModule):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, graph, features):
        return self.model(graph, features)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        graph, features, *_ = batch
        return self(graph, features)

# Lightning keeps every `predict_step` return until `Trainer.predict` ends (moved to the CPU, not
# detached): a step that switches grad on (forces as derivatives of the energy) returns its graph.
import torch
from lightning.pytorch import LightningModule, Trainer


class ForcesPredictor(LightningModule):
    def __init__(self, model, enable_grad=True):
        super().__init__()
        self.model = model
        self.enable_grad = enable_grad

    def forward(self, x):
        return self.model(x)

    def predict_step(self, batch, batch_idx, dataloader_idx=0):
        torch.set_grad_enabled(self.enable_grad)
        results = self(batch)
        return results  # expect: ML001


def predict(model, loader):
    return Trainer(inference_mode=False).predict(ForcesPredictor(model), loader)

# The teacher is a submodule and the optimizer takes self.parameters(): it is trained (co-distillation).
import lightning as L
import torch


class CoDistill(L.LightningModule):
    def __init__(self, teacher):
        super().__init__()
        self.net = torch.nn.Linear(128, 10)
        self.teacher = teacher
        self.teacher.eval()

    def training_step(self, batch, batch_idx):
        x, y = batch
        return torch.nn.functional.cross_entropy(self.net(x) + self.teacher(x), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters())

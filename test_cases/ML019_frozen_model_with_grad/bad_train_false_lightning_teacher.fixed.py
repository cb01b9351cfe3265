# A LightningModule's teacher, switched off with train(False), runs with grad in training_step.
import lightning as L
import torch


class Student(L.LightningModule):
    def __init__(self, teacher):
        super().__init__()
        self.net = torch.nn.Linear(128, 10)
        self.teacher = teacher
        self.teacher.train(False)

    def training_step(self, batch, batch_idx):
        x, y = batch
        with torch.no_grad():
            soft = self.teacher(x).softmax(-1)  # expect: ML019
        return torch.nn.functional.cross_entropy(self.net(x), soft)

    def configure_optimizers(self):
        return torch.optim.Adam(self.net.parameters())

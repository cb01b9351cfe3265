# The same decode loop, but the Trainer runs in full precision: Lightning enters no autocast at all.
import lightning as L
import torch
import torch.nn.functional as F


class Seq2Seq(L.LightningModule):
    def __init__(self, vocab=1000, hidden=512):
        super().__init__()
        self.cell = torch.nn.GRUCell(hidden, hidden)
        self.head = torch.nn.Linear(hidden, vocab)

    def training_step(self, batch, batch_idx):
        h, targets = batch
        loss = 0.0
        for t in range(targets.shape[1]):
            h = self.cell(h, h)
            loss = loss + F.cross_entropy(self.head(h), targets[:, t])
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


if __name__ == "__main__":
    L.Trainer(precision="32-true", max_epochs=1).fit(Seq2Seq())

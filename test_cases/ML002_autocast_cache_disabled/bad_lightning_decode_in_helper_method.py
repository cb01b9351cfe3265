# The decode loop lives in a helper that training_step calls: Lightning's cache-less autocast
# (precision="16-mixed", legacy pytorch_lightning import) still wraps it.
import pytorch_lightning as pl
import torch


class Captioner(pl.LightningModule):
    def __init__(self, hidden=768, vocab=32000):
        super().__init__()
        self.encoder = torch.nn.Linear(2048, hidden)
        self.decoder = torch.nn.LSTMCell(hidden, hidden)
        self.lm_head = torch.nn.Linear(hidden, vocab)

    def decode(self, h, targets):
        c = torch.zeros_like(h)
        loss = 0.0
        for t in range(targets.size(1)):
            h, c = self.decoder(h, (h, c))
            loss = loss + torch.nn.functional.cross_entropy(self.lm_head(h), targets[:, t])
        return loss

    def training_step(self, batch, batch_idx):
        features, captions = batch
        loss = self.decode(self.encoder(features), captions)  # expect: ML002
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=3e-4)


def main():
    trainer = pl.Trainer(devices=1, precision="16-mixed")
    trainer.fit(Captioner())

# DeepSpeed brings its own precision plugin, which does not enter Lightning's cache-less autocast.
import lightning as L
import torch


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
            loss = loss + torch.nn.functional.cross_entropy(self.head(h), targets[:, t])
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


if __name__ == "__main__":
    L.Trainer(strategy="deepspeed_stage_2", precision="16-mixed").fit(Seq2Seq())

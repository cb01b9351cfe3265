# The workaround for Lightning issue 21611: the step re-enters autocast with the cache on around its loop.
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
        with torch.autocast(self.device.type, dtype=torch.bfloat16, cache_enabled=True):
            for t in range(targets.shape[1]):
                h = self.cell(h, h)
                loss = loss + F.cross_entropy(self.head(h), targets[:, t])
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


if __name__ == "__main__":
    L.Trainer(precision="bf16-mixed", max_epochs=1).fit(Seq2Seq())

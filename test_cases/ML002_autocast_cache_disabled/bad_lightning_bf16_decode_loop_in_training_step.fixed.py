# Lightning 2.5.5-2.6.6 run training_step under autocast(cache_enabled=False) for precision="bf16-mixed":
# the decode loop recasts (and saves) the GRU and head weights on every step (Lightning issue 21611).
import lightning as L
import torch
import torch.nn.functional as F


class Seq2Seq(L.LightningModule):
    def __init__(self, vocab=1000, hidden=512):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, hidden)
        self.cell = torch.nn.GRUCell(hidden, hidden)
        self.head = torch.nn.Linear(hidden, vocab)

    def training_step(self, batch, batch_idx):
        h, targets = batch
        loss = 0.0
        token = targets[:, 0]
        with torch.autocast(self.device.type, dtype=torch.bfloat16, cache_enabled=True):
            for t in range(1, targets.shape[1]):  # expect: ML002
                h = self.cell(self.embed(token), h)
                loss = loss + F.cross_entropy(self.head(h), targets[:, t])
                token = targets[:, t]
        return loss / targets.shape[1]

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


if __name__ == "__main__":
    trainer = L.Trainer(accelerator="gpu", precision="bf16-mixed", max_epochs=1)
    trainer.fit(Seq2Seq())

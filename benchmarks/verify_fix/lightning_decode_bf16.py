"""Lightning 2.6, precision="bf16-mixed": an autoregressive decode loop of 50 steps inside
`training_step`. Lightning runs the step under `autocast(cache_enabled=False)`, so every decode
step casts the weights again and keeps the casts for backward (Lightning issue 21611: 1,227 MiB
peak per step against 345 MiB with the cache on). Memory is flat across steps; the peak within a
step is the leak."""

import torch
from lightning.pytorch import Callback, LightningModule, Trainer

from memlog import log


class LogMemory(Callback):
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        log(batch_idx)


class Decoder(LightningModule):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(*[torch.nn.Linear(2048, 2048) for _ in range(4)])

    def training_step(self, batch, batch_idx):
        (x,) = batch
        h = x
        total = 0
        for _ in range(50):
            h = self.layers(h).tanh()
            total = total + h.float().pow(2).mean()
        return total

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=1e-3)


def main():
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8 * 40, 2048)), batch_size=8)
    trainer = Trainer(accelerator="auto", devices=1, precision="bf16-mixed", max_steps=40, logger=False,
                      enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
                      callbacks=[LogMemory()])
    trainer.fit(Decoder(), loader)


if __name__ == "__main__":
    main()

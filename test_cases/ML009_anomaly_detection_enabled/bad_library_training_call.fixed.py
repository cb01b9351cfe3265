# `with detect_anomaly():` around Lightning's `Trainer.fit`, whose body is not in the file: the
# library table says it trains.
import lightning.pytorch as pl
import torch


def fit(model, loader):
    trainer = pl.Trainer(max_epochs=1)
    with torch.autograd.set_detect_anomaly(False):  # expect: ML009
        trainer.fit(model, loader)

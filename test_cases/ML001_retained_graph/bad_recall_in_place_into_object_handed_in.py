# A running statistic kept on the device by an object the training loop hands to every step:
# adding the loss in place chains each step's graph onto the statistic's. The step function
# differentiates, so it is one step even where a call (the warm-up) is outside the loop.
import torch


def take_training_step(model, criterion, batch, scaler, stats):
    with torch.autocast("cuda"):
        loss = criterion(model(batch["input"]), batch["labels"])
    stats.device_stat("average_loss").add_(loss)  # expect: ML001
    scaler.scale(loss).backward()


def train(model, criterion, loader, optimizer, scaler, stats, warmup_batch):
    take_training_step(model, criterion, warmup_batch, scaler, stats)
    for batch in loader:
        take_training_step(model, criterion, batch, scaler, stats)
        scaler.step(optimizer)
        scaler.update()

# Look-alikes of bad_recall_in_place_into_object_handed_in.py: the statistic gets the detached
# loss; a tensor made in the step and updated in place dies with the step.
import torch


def take_training_step(model, criterion, batch, scaler, stats):
    with torch.autocast("cuda"):
        loss = criterion(model(batch["input"]), batch["labels"])
    stats.device_stat("average_loss").add_(loss.detach())
    total = torch.zeros(1, device=loss.device)
    total.add_(loss)
    scaler.scale(total).backward()


def train(model, criterion, loader, optimizer, scaler, stats):
    for batch in loader:
        take_training_step(model, criterion, batch, scaler, stats)
        scaler.step(optimizer)
        scaler.update()

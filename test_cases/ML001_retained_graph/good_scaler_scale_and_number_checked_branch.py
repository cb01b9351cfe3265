# Swin Transformer's MoE loop: the auxiliary loss is a float or a tensor, and the meter gets the float
# or `.item()`; `scaler.scale(loss).backward()` differentiates the loss, not the scaler, so
# `scaler.get_scale()` (a Python float) keeps no graph.
import torch


def train(model, loader, optimizer, scaler, criterion, loss_meter, loss_scale_meter, loss_aux_meter):
    for samples, targets in loader:
        with torch.autocast("cuda"):
            outputs, l_aux = model(samples)
            loss = criterion(outputs, targets) + l_aux
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        loss_meter.update(loss.item(), targets.size(0))
        loss_aux_meter.update(l_aux if isinstance(l_aux, float) else l_aux.item(), targets.size(0))
        loss_scale_meter.update(scaler.get_scale())

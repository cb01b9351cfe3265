# The same in-place average with the live parameters read without history: through `.data`, under
# `no_grad`, detached; and a copy of detached values.
import torch


def train(model, ema_model, loader, optimizer, decay=0.99):
    ema_model.requires_grad_(False)
    for x in loader:
        model(x).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        for ema_p, p in zip(ema_model.parameters(), model.parameters()):
            ema_p.data.mul_(decay).add_(p.data, alpha=1 - decay)
        with torch.no_grad():
            for ema_p, p in zip(ema_model.parameters(), model.parameters()):
                ema_p.mul_(decay).add_(p, alpha=1 - decay)
        for ema_p, p in zip(ema_model.parameters(), model.parameters()):
            ema_p.mul_(decay).add_(p.detach(), alpha=1 - decay)
        for ema_p, p in zip(ema_model.parameters(), model.parameters()):
            ema_p.copy_(p.detach())

# The look-alike of bad_loss_kept_beside_coupled_schedule.py: the schedule's coefficients, computed
# from one another round the inner loop from plain numbers, carry no history, and the loss is kept
# as a Python number.
import torch


def train(model, loader, optimizer, inner_steps, warmup, decay, floor, boosts):
    losses = []
    rates = []
    lr = warmup
    mom = decay
    var = floor
    for x, y in loader:
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        for k in range(inner_steps):
            gain = boosts[k] + lr
            rise = gain + lr + mom
            fall = rise * mom + var + gain
            step = fall - lr + var * rise
            mom = fall * mom + rise * step + gain
            var = var * fall + mom * step + rise
            lr = step * mom + var + lr
        rates.append(lr)
        losses.append(loss.item())
    return losses, rates

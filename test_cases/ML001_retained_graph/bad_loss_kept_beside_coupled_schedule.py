# A schedule whose coefficients are computed from one another at every inner step (they read each
# other round the loop's back edge) beside a loss list that keeps every step's graph. Whether the
# schedule carries history is asked once per name and place it is read: followed once per path, the
# question took exponential time and the file's analysis ran out of its CPU budget, its findings lost.
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
        losses.append(loss)  # expect: ML001
    return losses, rates

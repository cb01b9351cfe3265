# fit() trains in its loop, then scores the trained model once: not a frozen model in a training step
# (scoring without no_grad is ML003's business).
import torch


def fit(model, loader, optimizer, x_val, y_val):
    for x, y in loader:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    model.eval()
    score = model(x_val).argmax(-1).eq(y_val).float().mean().item()
    return score

# pyro's SVI returns the loss as a Python float from `step` and `evaluate_loss` (the library's
# model, not a guess from the name): summing them keeps no graph, also when `svi` reaches the
# loop as a parameter that every call of the function passes an `SVI(...)` (pyro's VAE tutorial).
import torch
from pyro.infer import SVI, Trace_ELBO
from pyro.optim import Adam


def train(svi, train_loader):
    epoch_loss = 0.0
    for x, _ in train_loader:
        epoch_loss += svi.step(x)
    return epoch_loss / len(train_loader.dataset)


def evaluate(svi, test_loader):
    test_loss = 0.0
    for x, _ in test_loader:
        x = x.cuda()
        test_loss += svi.evaluate_loss(x)
    return test_loss / len(test_loader.dataset)


def main(vae, train_loader, test_loader, epochs):
    svi = SVI(vae.model, vae.guide, Adam({"lr": 1e-3}), loss=Trace_ELBO())
    for epoch in range(epochs):
        print(epoch, train(svi, train_loader), evaluate(svi, test_loader))
        total = 0.0
        for x, _ in test_loader:
            total += svi.evaluate_loss(x)
        print(total)

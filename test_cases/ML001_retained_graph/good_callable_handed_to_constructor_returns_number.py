# The same running energy, handed a function that returns a number (`.item()`): the total is a float.
import torch


class RunningEnergy:
    def __init__(self, model, energy_fn):
        self.model = model
        self._energy_fn = energy_fn
        self.total = None

    def update(self, batch):
        energy = self._energy_fn(self.model, batch)
        if self.total is None:
            self.total = energy
        else:
            self.total = self.total + energy


def output_energy(model, batch):
    return model(batch).pow(2).sum().item()


def train(model, optimizer, loader):
    energy = RunningEnergy(model, output_energy)
    for batch in loader:
        loss = model(batch).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        energy.update(batch)

# `RunningEnergy` calls the function its constructor was handed and adds what it returns to a total on
# `self`; the training loop hands it a function that runs the model with grad on and updates it every
# step: the total chains every step's graph (the construction is in this file).
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
            self.total = self.total + energy  # expect: ML001


def output_energy(model, batch):
    return model(batch).pow(2).sum()


def train(model, optimizer, loader):
    energy = RunningEnergy(model, output_energy)
    for batch in loader:
        loss = model(batch).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        energy.update(batch)

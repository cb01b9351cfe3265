# The fixed ignite process function keeps a Python number per iteration.
import torch
from ignite.engine import Engine

losses = []


def train_step(engine, batch):
    model.train()
    optimizer.zero_grad()
    x, y = batch
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    return loss.item()


trainer = Engine(train_step)

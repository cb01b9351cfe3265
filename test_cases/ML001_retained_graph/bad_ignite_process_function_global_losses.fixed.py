# ignite calls the process function given to Engine once per iteration; the module-level list
# keeps every iteration's loss with its graph.
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
    losses.append(loss.detach())  # expect: ML001
    return loss.item()


trainer = Engine(train_step)

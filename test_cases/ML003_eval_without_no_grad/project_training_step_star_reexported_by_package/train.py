# Linted as one project with lib/: the epoch loop follows a warm-up under no_grad with the model in
# eval mode, and calls `lib.learn` (re-exported by lib/__init__.py's `from .deep import *`), which
# trains: a training loop, silent. The loop after it calls `lib.predict`, which only runs the model:
# an evaluation loop with grad on.
import torch
import torch.nn as nn

import lib

model = nn.Linear(4, 1).cuda()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
X = torch.randn(1000, 4, device="cuda")
Y = torch.randn(1000, 1, device="cuda")


def step(idx):
    return model(X[idx]), Y[idx]


with torch.no_grad():
    model.eval()
    step(torch.arange(8))
for epoch in range(10):
    losses = []
    for idx in torch.randperm(len(X)).split(64):
        loss = lib.learn(model, optimizer, nn.functional.mse_loss, step, idx, 16)
        losses.append(loss.item())
    print(epoch, lib.mean(losses))
model.eval()
predictions = []
for idx in torch.arange(len(X)).split(64):
    predictions.append(lib.predict(step, idx).squeeze(-1).tolist())  # expect: ML003

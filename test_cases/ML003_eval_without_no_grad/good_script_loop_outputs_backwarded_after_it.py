# Look-alike of a script's loop that evaluates by use: the script differentiates what the loop ran
# (the outputs' sum after it), so the graphs each step records are wanted.
import torch
from torch import nn

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
inputs = [torch.randn(16, 4) for _ in range(10)]
labels = []
scores = []
for x in inputs:
    out = net(x)
    labels.extend(out.argmax(-1).tolist())
    scores.append(out.max())
torch.stack(scores).sum().backward()

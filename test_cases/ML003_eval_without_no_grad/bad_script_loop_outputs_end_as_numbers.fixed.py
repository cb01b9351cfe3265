# A script's top-level loop over inputs that runs the network and reads each output only as
# integers and numbers (`.argmax(-1).tolist()`), in a script that differentiates nothing:
# evaluation by use, with no `model.eval()` and no evaluation word in sight.
import torch
from torch import nn

net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
net.load_state_dict(torch.load("weights.pt", map_location="cpu"))
inputs = [torch.randn(16, 4) for _ in range(10)]
labels = []
with torch.no_grad():
    for x in inputs:
        labels.extend(net(x).argmax(-1).tolist())  # expect: ML003
print(labels)

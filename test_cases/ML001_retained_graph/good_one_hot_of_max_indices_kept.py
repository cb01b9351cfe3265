# The one-hot codes of the predicted classes are kept for a confusion matrix. The classes come from
# the output's `max` (its indices), and `F.one_hot` returns an integer tensor whatever it is handed:
# no autograd history is kept (kept on the device every step, they are ML005's to report).
import torch
import torch.nn.functional as F


def train(model, loader, optimizer):
    predicted = []
    for x, y in loader:
        out = model(x)
        loss = F.cross_entropy(out, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        _, top = out.max(-1)
        predicted.append(F.one_hot(top, 10))  # expect: ML005
        predicted.append(F.one_hot(out.max(-1)[1], 10))  # expect: ML005
    return predicted

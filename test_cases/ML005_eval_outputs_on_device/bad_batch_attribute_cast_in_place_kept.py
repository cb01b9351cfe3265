# The graph batch goes to the model as the loader yields it, so it is on the device; its labels,
# cast and stored back on it (`data.y = data.y.float()`), are still there when collected.
import torch


def evaluate(model, loader):
    preds = []
    with torch.no_grad():
        for data in loader:
            out = model(data)
            data.y = data.y.float()
            preds.append(data.y)  # expect: ML005
    return preds

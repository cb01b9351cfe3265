# Each sample's row of a batch's output, kept by its name or index: views of the batch's output
# tensor, all on the device.
import torch


def embed(model, loader, device):
    model.eval()
    feats = {}
    with torch.no_grad():
        for names, x in loader:
            out = model(x.to(device))
            for name, feat in zip(names, out):
                feats[name] = feat  # expect: ML005
    return feats


def embed_rows(model, loader, device):
    model.eval()
    rows = []
    with torch.no_grad():
        for x, _ in loader:
            out = model(x.to(device))
            for i, row in enumerate(out):
                rows.append(row)  # expect: ML005
    return rows

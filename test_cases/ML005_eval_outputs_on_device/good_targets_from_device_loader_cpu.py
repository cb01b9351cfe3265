# The fixed get_preds: outputs and targets are moved to the host as they are collected.
import torch


def get_preds(model, dl):
    preds, targs = [], []
    model.eval()
    with torch.no_grad():
        for xb, yb in dl:
            out = model(xb)
            preds.append(out.detach().cpu())
            targs.append(yb.cpu())
    return torch.cat(preds), torch.cat(targs)

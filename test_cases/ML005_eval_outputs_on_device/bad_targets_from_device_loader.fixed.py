# fastai-style get_preds: the loader yields batches already on the device (xb goes to the model as
# it is), so the targets kept two lines below the outputs are on the device too.
import torch


def get_preds(model, dl):
    preds, targs = [], []
    model.eval()
    with torch.no_grad():
        for xb, yb in dl:
            out = model(xb)
            preds.append(out.detach().cpu())  # expect: ML005
            targs.append(yb.detach().cpu())  # expect: ML005
    return torch.cat(preds), torch.cat(targs)

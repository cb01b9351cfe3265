# The twin of good_cpu_then_dtype_cast.py: the cast without `.cpu()` leaves the labels on the device.
import torch


@torch.no_grad()
def test(model, loader, device):
    model.eval()
    y_pred, y_true = [], []
    for data in loader:
        data = data.to(device)
        logits = model(data.x, data.edge_index)
        y_pred.append(logits.view(-1).cpu())
        y_true.append(data.y.view(-1).to(torch.float).detach().cpu())  # expect: ML005
    return torch.cat(y_true), torch.cat(y_pred)

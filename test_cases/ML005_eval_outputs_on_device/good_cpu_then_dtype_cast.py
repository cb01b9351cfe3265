# `.cpu().to(torch.float)`: a dtype cast after `.cpu()` keeps the tensor on the host (the library
# table says `.to(dtype)` moves nothing) (pytorch_geometric's seal_link_pred).
import torch


@torch.no_grad()
def test(model, loader, device):
    model.eval()
    y_pred, y_true = [], []
    for data in loader:
        data = data.to(device)
        logits = model(data.x, data.edge_index)
        y_pred.append(logits.view(-1).cpu())
        y_true.append(data.y.view(-1).cpu().to(torch.float))
    return torch.cat(y_true), torch.cat(y_pred)

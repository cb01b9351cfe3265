# Forces are the gradient of the energy with respect to positions, taken with `create_graph=True`:
# the evaluation loop then concatenates every batch's energy with its graph into `preds`, so the
# graphs of all batches stay alive until the metric is computed.
import torch
from torch.autograd import grad


def evaluate(model, loader, device):
    model.eval()
    preds = torch.Tensor([])
    for batch in loader:
        batch = batch.to(device)
        out = model(batch)
        force = -grad(outputs=out, inputs=batch.pos, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
        preds = torch.cat([preds, out.cpu()], dim=0)  # expect: ML001
    return preds.abs().mean().item()

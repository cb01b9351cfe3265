# The look-alike moves each batch's logits to the CPU as it collects them; a comprehension over
# the layers of one model, or over a few Monte Carlo samples of one batch, is no loop over batches.
import torch


@torch.no_grad()
def predict(model, loader, device):
    model.eval()
    logits = torch.cat([model(x.to(device)).cpu() for x, _ in loader])
    return logits.argmax(dim=1)


@torch.no_grad()
def layer_outputs(model, x):
    return [layer(x) for layer in model.layers]


@torch.no_grad()
def mc_predict(model, x, eval_samples):
    # a few Monte Carlo samples of one batch: bounded by the count, not by the data set
    return torch.stack([model(x) for _ in range(eval_samples)]).mean(0)

# The fixed packnet-sfm loop: each tensor of the output dict is detached before it is kept.
import torch


def train_epoch(model, dataloader, optimizer):
    outputs = []
    for batch in dataloader:
        optimizer.zero_grad()
        output = model(batch)
        output["loss"].backward()
        optimizer.step()
        outputs.append({k: v.detach() if isinstance(v, torch.Tensor) else v for k, v in output.items()})
    return outputs

# packnet-sfm issue 47: the model returns a dict, its "loss" is backwarded, and the whole dict
# (loss with graph, depth maps on the device) is kept for the epoch's end. `.detach()` on the
# dict would raise AttributeError: the fix detaches its tensor entries.
import torch


def train_epoch(model, dataloader, optimizer):
    outputs = []
    for batch in dataloader:
        optimizer.zero_grad()
        output = model(batch)
        output["loss"].backward()
        optimizer.step()
        outputs.append({k: v.detach().cpu() if isinstance(v, torch.Tensor) else v for k, v in output.items()})  # expect: ML001
    return outputs

# `policy_net` is handed in, and nothing in the file makes it: only its name says it is a model and
# not an optimizer, so the finding is an assumption, shown with `--preview` only.
import torch.nn.functional as F


def fit(model, policy_net, optimizer, loader, accelerator):
    for x, y in loader:
        with accelerator.accumulate(model):
            loss = F.cross_entropy(model(x), y)
            accelerator.backward(loss)
            optimizer.step()
            policy_net.zero_grad()  # preview: ML014
    return loss.item()

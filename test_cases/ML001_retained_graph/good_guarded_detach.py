# A value detached where a tensor check finds a tensor: what reaches the store past the check is
# either detached or no tensor at all.
import torch


def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        loss = model(x, y)
        loss.backward()
        optimizer.step()
        value = loss
        if isinstance(value, torch.Tensor):
            value = value.detach()
        history.append(value)
        kept = loss.detach() if torch.is_tensor(loss) else loss
        history.append(kept)
    return history

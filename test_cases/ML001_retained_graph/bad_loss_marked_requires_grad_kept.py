# A loss marked to require grad on one device (pytorch-forecasting's MPS guard) is still the loss with its
# graph: keeping it for every step keeps every step's graph skeleton.
def train(model, opt, loader, criterion):
    losses = []
    for x, y in loader:
        loss = criterion(model(x), y)
        if x.device.type == "mps":
            loss.requires_grad_(True)
        loss.backward()
        opt.step()
        losses.append(loss)  # expect: ML001
    return losses

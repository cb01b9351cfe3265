# Running averages of the parameters read without history: under `no_grad`, through `.data`, and
# from `state_dict()` (which detaches its tensors); and the parameters' norms computed once, after
# training, not kept per step.
import torch


def train(model, loader, optimizer, decay=0.99):
    average = {n: p.detach().clone() for n, p in model.named_parameters()}
    slow = {n: p.detach().clone() for n, p in model.named_parameters()}
    state = {k: v.clone() for k, v in model.state_dict().items()}
    for x in loader:
        model(x).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        with torch.no_grad():
            for n, p in model.named_parameters():
                average[n] = decay * average[n] + (1 - decay) * p
        for n, p in model.named_parameters():
            slow[n] = decay * slow[n] + (1 - decay) * p.data
        for k, v in model.state_dict().items():
            state[k] = decay * state[k] + (1 - decay) * v
    norms = [p.norm() for p in model.parameters()]
    return average, slow, state, norms

# A running average of the parameters, updated after every optimizer step outside `no_grad`: a
# parameter requires grad, so each new average records a graph chained onto the last one's.
def train(model, loader, optimizer, decay=0.99):
    average = {n: p.detach().clone() for n, p in model.named_parameters()}
    for x in loader:
        model(x).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        for n, p in model.named_parameters():
            average[n] = decay * average[n] + ((1 - decay) * p).detach()  # expect: ML001
    return average

# A frozen copy of the model averaged in place after every step, outside `no_grad`: an in-place
# operation with a parameter that requires grad records a graph into the frozen parameter, and each
# step's is chained onto the last one's: also a soft update that copies a mix with its own value, and
# a hard update (`copy_` links each copy's node to the one it overwrites).
def train(model, ema_model, loader, optimizer, decay=0.99):
    ema_model.requires_grad_(False)
    for x in loader:
        model(x).mean().backward()
        optimizer.step()
        optimizer.zero_grad()
        for ema_p, p in zip(ema_model.parameters(), model.parameters()):
            ema_p.mul_(decay).add_(p, alpha=1 - decay)  # expect: ML001
        for t, p in zip(ema_model.parameters(), model.parameters()):
            t.copy_(0.01 * p + 0.99 * t)  # expect: ML001
        for t, p in zip(ema_model.parameters(), model.parameters()):
            t.copy_(p)  # expect: ML001

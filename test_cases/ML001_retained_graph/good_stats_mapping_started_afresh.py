# A mapping that got a value with history in an entry is started afresh (`stats = {}`) before it is
# kept: what the history holds is only the float set after that.


def train(model, optimizer, loader):
    history = []
    for x, y in loader:
        out = model(x)
        stats = {}
        stats["scale"] = out.abs().mean()
        loss = ((out - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        stats = {}
        stats["loss"] = loss.item()
        history.append(stats)
    return history

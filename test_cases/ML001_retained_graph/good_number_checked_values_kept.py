# The step's outputs kept as numbers: an entry that `isinstance(value, (int, float))` says is a
# Python number is kept as it is, every other one through `.item()`.
def train(model, loader, optimizer):
    history = []
    for x, y in loader:
        outputs = model(x, y)
        optimizer.zero_grad()
        outputs["loss"].backward()
        optimizer.step()
        for key, value in outputs.items():
            if isinstance(value, (int, float)):
                history.append(value)
            else:
                history.append(value.item())
    return history

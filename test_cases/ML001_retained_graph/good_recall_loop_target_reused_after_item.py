# The step's losses turned into numbers in a second mapping, then copied into a third under the
# same loop names: the second loop's `value` holds those numbers, never the first loop's tensors.
def train(model, loader, optimizer, meter):
    for x, y in loader:
        losses = model(x, y)
        optimizer.zero_grad()
        losses["loss"].backward()
        optimizer.step()
        numbers = dict()
        for key, value in losses.items():
            if isinstance(value, (int, float)):
                numbers[key] = value
            else:
                numbers[key] = value.item()
        averaged = dict()
        for key, value in numbers.items():
            averaged["avg_" + key] = value
        meter.history.append(averaged)

# Like good_recall_loop_target_reused_after_item.py, but the second mapping keeps the tensors
# themselves: every step's mapping, appended to a list that outlives the loop, keeps its graph.
def train(model, loader, optimizer, meter):
    for x, y in loader:
        losses = model(x, y)
        optimizer.zero_grad()
        losses["loss"].backward()
        optimizer.step()
        numbers = dict()
        for key, value in losses.items():
            numbers[key] = value.item()
        averaged = dict()
        for key, value in losses.items():
            averaged["avg_" + key] = value
        meter.history.append(averaged)  # expect: ML001

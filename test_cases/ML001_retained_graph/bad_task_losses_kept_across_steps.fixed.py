# The tasks of each batch (`for task in data`) are one step's; `history`, made before the loop
# over batches, keeps every task's loss with its graph across steps.
def train(model, loader, optimizer, heads):
    history = []
    for data in loader:
        total = 0
        for task in data:
            loss = heads[task](model(data[task]["x"]), data[task]["y"])
            total = total + loss
            history.append(loss.detach())  # expect: ML001
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
    return history

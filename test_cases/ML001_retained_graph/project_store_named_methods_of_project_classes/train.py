# Linted as one project with averagers.py: `Averager.add` keeps a detached sum (fine) although `add` is a
# set's store; `History.append` keeps its argument with its graph (a leak when handed the loss).
from averagers import Averager, History


def train(model, loader, optimizer, criterion):
    loss_avg = Averager()
    history = History()
    for image, labels in loader:
        cost = criterion(model(image), labels)
        model.zero_grad()
        cost.backward()
        optimizer.step()
        loss_avg.add(cost)
        history.append(cost)  # expect: ML001

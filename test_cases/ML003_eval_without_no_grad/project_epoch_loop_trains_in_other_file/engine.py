# Linted as one project with main.py: one epoch of training whose backward happens in a callable it is
# handed (an AMP loss scaler: `loss_scaler(loss, optimizer)`), and one epoch of scoring that trains nothing.


def run_epoch(model, criterion, loader, optimizer, loss_scaler):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss_scaler(loss, optimizer, parameters=model.parameters())
    return {"lr": optimizer.param_groups[0]["lr"]}


def score_epoch(model, loader):
    correct = 0.0
    for x, y in loader:
        correct += (model(x).argmax(-1) == y).float().sum().item()  # expect: ML003
    return correct

# The number check converts the float branch and keeps the tensor branch as it is: a tensor auxiliary
# loss goes into the history with its graph.
import torch


def train(model, loader, optimizer, scaler, criterion):
    aux_history = []
    for samples, targets in loader:
        outputs, l_aux = model(samples)
        loss = criterion(outputs, targets) + l_aux
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        aux_history.append(float(l_aux) if isinstance(l_aux, float) else l_aux.detach())  # expect: ML001

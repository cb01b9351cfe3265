# Distillation: the frozen teacher is put in eval mode before the epoch loop, whose every epoch
# trains the student through `train_one_epoch` (its own batch loop zeroes, backwards through the
# scaler it is handed, and steps): the epoch loop trains, it is no evaluation loop.
import torch


def train_one_epoch(model, teacher, criterion, loader, optimizer, loss_scaler):
    model.train()
    for samples, targets in loader:
        with torch.no_grad():
            soft = teacher(samples)
        outputs = model(samples)
        loss = criterion(outputs, targets) + criterion(outputs, soft.softmax(-1))
        optimizer.zero_grad()
        loss_scaler(loss, optimizer, parameters=model.parameters())


@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    correct = 0
    for samples, targets in loader:
        correct += (model(samples).argmax(-1) == targets).sum().item()
    return correct


def main(model, teacher, criterion, train_loader, val_loader, optimizer, loss_scaler, epochs):
    teacher.eval()
    for epoch in range(epochs):
        train_one_epoch(model, teacher, criterion, train_loader, optimizer, loss_scaler)
        print(epoch, evaluate(model, val_loader))

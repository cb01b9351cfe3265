# Look-alikes of a shared training and evaluation pass: grad follows the flag, the evaluation call
# runs under no_grad, every call trains, or the flag guards only the optimizer step.
import torch
import torch.nn as nn


def run_epoch(model, loader, criterion, optimizer=None, train=True):
    total = 0.0
    for x, y in loader:
        with torch.set_grad_enabled(train):
            loss = criterion(model(x), y)
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def run(model, loader, optimizer=None):
    total = 0.0
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def step_all(model, loader, optimizer, update=True):
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        if update:
            optimizer.step()
            optimizer.zero_grad()


def train_model(model, dataloaders, criterion, optimizer):
    for phase in ["train", "val"]:
        for inputs, labels in dataloaders[phase]:
            optimizer.zero_grad()
            with torch.set_grad_enabled(phase == "train"):
                loss = criterion(model(inputs), labels)
            if phase == "train":
                loss.backward()
                optimizer.step()


def main(train_loader, val_loader):
    model = nn.Linear(10, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    crit = nn.CrossEntropyLoss()
    run_epoch(model, train_loader, crit, opt, train=True)
    run_epoch(model, val_loader, crit, train=False)
    run(model, train_loader, opt)
    with torch.no_grad():
        run(model, val_loader)
    step_all(model, train_loader, opt, update=False)

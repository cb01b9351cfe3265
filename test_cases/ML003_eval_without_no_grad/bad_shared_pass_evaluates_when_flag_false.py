# One function for the training and the evaluation pass: it trains only when a value says so, and
# where that value is false it runs the model with grad on for a backward that never comes.
import torch
import torch.nn as nn


def run_epoch(model, loader, criterion, optimizer=None, train=True):
    model.train(train)
    total = 0.0
    for x, y in loader:
        out = model(x.cuda())  # expect: ML003
        loss = criterion(out, y.cuda())
        if train:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def run(model, loader, optimizer=None):
    total = 0.0
    for x, y in loader:
        loss = nn.functional.mse_loss(model(x), y)  # expect: ML003
        if optimizer is not None:
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        total += loss.item()
    return total


def train_model(model, dataloaders, criterion, optimizer, num_epochs=25):
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            model.train(phase == "train")
            running_loss = 0.0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                outputs = model(inputs.cuda())  # expect: ML003
                loss = criterion(outputs, labels.cuda())
                if phase == "train":
                    loss.backward()
                    optimizer.step()
                running_loss += loss.item()
    return model


def main(train_loader, val_loader):
    model = nn.Linear(10, 2).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    crit = nn.CrossEntropyLoss()
    for epoch in range(10):
        run_epoch(model, train_loader, crit, opt, train=True)
        run_epoch(model, val_loader, crit, train=False)
        run(model, train_loader, opt)
        run(model, val_loader)
    train_model(model, {"train": train_loader, "val": val_loader}, crit, opt)

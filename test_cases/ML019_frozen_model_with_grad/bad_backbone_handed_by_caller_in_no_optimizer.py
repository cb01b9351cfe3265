# verify: flat
# The caller builds the optimizer over the head alone and hands `train` the backbone too, which
# `train` runs in eval mode with grad on: its parameters still require grad, so every step records
# a graph through it and fills its `.grad`s (memory stays flat: the graph goes with each step).
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def train(train_loader, backbone, head, criterion, optimizer):
    backbone.eval()
    for images, target in train_loader:
        features = backbone(images)  # expect: ML019
        loss = criterion(head(features), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU()).to(device)
    head = nn.Linear(128, 10).to(device)
    optimizer = torch.optim.SGD(head.parameters(), lr=0.1)
    loader = [(torch.randn(32, 64, device=device), torch.randint(0, 10, (32,), device=device)) for _ in range(30)]
    train(loader, backbone, head, nn.CrossEntropyLoss(), optimizer)


if __name__ == "__main__":
    main()

# verify: flat
# As simsiam's linear probing (main_lincls.py): `train` keeps the model in eval mode to freeze its
# BatchNorm statistics, but its caller builds the optimizer over the model's trainable parameters:
# the model is trained, and its graph is wanted.
import torch
from torch import nn

device = "cuda" if torch.cuda.is_available() else "cpu"


def train(train_loader, model, criterion, optimizer):
    model.eval()
    for images, target in train_loader:
        output = model(images)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main():
    model = nn.Sequential(nn.Linear(64, 128), nn.BatchNorm1d(128), nn.ReLU(), nn.Linear(128, 10)).to(device)
    parameters = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(parameters, lr=0.1)
    loader = [(torch.randn(32, 64, device=device), torch.randint(0, 10, (32,), device=device)) for _ in range(30)]
    train(loader, model, nn.CrossEntropyLoss(), optimizer)


if __name__ == "__main__":
    main()

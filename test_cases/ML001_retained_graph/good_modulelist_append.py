# verify: flat
# Modules appended to an nn.ModuleList in a loop are parameters, not autograd history.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Block(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = torch.nn.Linear(width, width)

    def forward(self, x):
        return x + torch.relu(self.fc(x))


def main():
    layers = torch.nn.ModuleList()
    for _ in range(4):
        layers.append(Block(16))
    layers.append(torch.nn.Linear(16, 4))
    model = torch.nn.Sequential(*layers).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    for _ in range(10):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{len(layers)} layers, last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# The hook overwrites one slot with out.detach() and is registered once, before the training loop.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    activations = {}

    def save_activation(module, inputs, out):
        activations["hidden"] = out.detach()

    model[1].register_forward_hook(save_activation)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}, hidden mean {activations['hidden'].mean().item():.3f}")


if __name__ == "__main__":
    main()

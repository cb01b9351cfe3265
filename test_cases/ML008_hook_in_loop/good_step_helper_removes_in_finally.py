# verify: flat
# A per-step helper collects per-layer input norms with hooks and removes them in `finally`.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def train_step(model, batch, optimizer):
    x, y = batch
    norms = {}
    handles = []
    for name, module in model.named_children():
        handles.append(module.register_forward_pre_hook(lambda m, args, name=name: norms.__setitem__(name, args[0].norm().item())))
    try:
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    finally:
        for handle in handles:
            handle.remove()
    return loss.item(), norms


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        batch = (torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
        loss, norms = train_step(model, batch, optimizer)
    print(f"last loss {loss:.3f}, input norms {norms}")


if __name__ == "__main__":
    main()

# verify: flat
# A per-step helper records gradient norms with a full backward hook whose handle is never removed.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
grad_norms = []


def train_step(model, batch, optimizer):
    x, y = batch
    handle = model[2].register_full_backward_hook(  # expect: ML008
        lambda module, grad_input, grad_output: grad_norms.append(grad_output[0].norm().item())
    )
    loss = F.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        batch = (torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
        loss = train_step(model, batch, optimizer)
    print(f"last loss {loss:.3f}, {len(grad_norms)} gradient norms recorded")


if __name__ == "__main__":
    main()

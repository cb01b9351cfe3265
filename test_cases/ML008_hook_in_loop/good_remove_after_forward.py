# verify: flat
# Each step registers a hook for one forward and removes it right after.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(30)]
    sparsity = []
    for x, y in loader:
        handle = model[1].register_forward_hook(lambda m, i, out: sparsity.append((out == 0).float().mean().item()))
        logits = model(x)
        handle.remove()
        loss = F.cross_entropy(logits, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}, mean sparsity {sum(sparsity) / len(sparsity):.2f}")


if __name__ == "__main__":
    main()

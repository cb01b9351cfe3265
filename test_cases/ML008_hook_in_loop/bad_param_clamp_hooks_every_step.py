# verify: flat
# Gradient clamping through parameter hooks, re-registered on every step: each backward runs one clamp per step so far.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(), torch.nn.Linear(32, 1)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loader = [(torch.randn(8, 16, device=device), torch.randn(8, 1, device=device)) for _ in range(30)]
    for x, y in loader:
        for p in model.parameters():
            p.register_hook(lambda grad: grad.clamp(-1.0, 1.0))  # expect: ML008
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.4f}")


if __name__ == "__main__":
    main()

# verify: flat
# `from torch.cuda import empty_cache as ec`, called only at the logging interval.
import torch
from torch.cuda import empty_cache as ec

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Linear(16, 1).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    log_every = 5
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randn(8, 1, device=device)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (step + 1) % log_every == 0:
            print(f"step {step + 1}: {loss.item():.4f}")
            ec()


if __name__ == "__main__":
    main()

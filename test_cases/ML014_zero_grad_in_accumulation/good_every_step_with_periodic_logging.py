# verify: flat
# No accumulation: the optimizer steps on every batch; only the logging is periodic.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(log_every=5):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        if step % log_every == 0:
            print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

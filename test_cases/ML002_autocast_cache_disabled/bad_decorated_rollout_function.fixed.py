# verify: leaks
# autocast(cache_enabled=False) used as a decorator on a function whose loop calls the model with grad.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=True)  # expect: ML002
def rollout(model, x, steps):
    for _ in range(steps):
        x = x + model(x)
    return x


def main():
    model = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Tanh()).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for _ in range(5):
        final = rollout(model, torch.randn(8, 1024, device=device), steps=40)
        loss = final.float().pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"loss {loss.item():.4f}")


if __name__ == "__main__":
    main()

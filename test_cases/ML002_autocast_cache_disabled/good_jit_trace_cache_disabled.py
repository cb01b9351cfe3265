# verify: flat
# cache_enabled=False as documented for torch.jit.trace under autocast; the traced model then runs without it.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    example = torch.randn(8, 16, device=device)
    with torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=False):
        traced = torch.jit.trace(model, example)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(traced(x).float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

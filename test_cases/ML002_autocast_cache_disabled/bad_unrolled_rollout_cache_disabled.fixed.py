# verify: leaks
# An unrolled rollout under autocast(cache_enabled=False): each step saves a fresh bf16 copy of the weights.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    cell = torch.nn.Sequential(torch.nn.Linear(1024, 1024), torch.nn.Tanh()).to(device)
    optimizer = torch.optim.SGD(cell.parameters(), lr=1e-2)
    for step in range(5):
        h = torch.randn(8, 1024, device=device)
        with torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=True):  # expect: ML002
            total = 0.0
            for t in range(40):
                h = cell(h)
                total = total + h.float().pow(2).mean()
        optimizer.zero_grad()
        total.backward()
        optimizer.step()
    print(f"last rollout loss {total.item():.4f}")


if __name__ == "__main__":
    main()

# verify: flat
# Lightning 2.6 style precision plugin returns autocast(cache_enabled=False): the region it wraps is unknown.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class BF16MixedPrecision:
    def __init__(self, device_type):
        self.device_type = device_type

    def autocast_context_manager(self):
        return torch.autocast(self.device_type, dtype=torch.bfloat16, cache_enabled=True)  # expect: ML002


def main():
    precision = BF16MixedPrecision(device)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with precision.autocast_context_manager():
            loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# autocast(cache_enabled=False) decorating a forward that calls each submodule once (no loop in the region).
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.body = torch.nn.Linear(16, 32)
        self.head = torch.nn.Linear(32, 4)

    @torch.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=False)
    def forward(self, x):
        return self.head(torch.relu(self.body(x)))


def main():
    model = Net().to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

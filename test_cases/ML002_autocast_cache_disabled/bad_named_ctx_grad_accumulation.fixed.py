# verify: flat
# A named autocast(cache_enabled=False) is entered around a gradient-accumulation loop over micro-batches.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    amp_ctx = torch.amp.autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=True)  # expect: ML002
    for _ in range(10):
        x, y = torch.randn(32, 16, device=device), torch.randint(0, 4, (32,), device=device)
        optimizer.zero_grad()
        with amp_ctx:
            for micro_x, micro_y in zip(x.chunk(4), y.chunk(4)):
                loss = F.cross_entropy(model(micro_x), micro_y) / 4
                loss.backward()
        optimizer.step()
    print(f"last micro loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

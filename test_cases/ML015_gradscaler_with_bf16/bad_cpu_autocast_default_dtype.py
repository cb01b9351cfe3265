# verify: flat
# CPU training: `torch.autocast("cpu")` defaults to bfloat16, so the CPU `GradScaler` has nothing to do.
import torch
import torch.nn.functional as F


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler("cpu")  # expect: ML015
    for step in range(20):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        with torch.autocast("cpu"):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# The scaler is kept for code structure but created with `enabled=False` next to the bfloat16 autocast.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device, enabled=False)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

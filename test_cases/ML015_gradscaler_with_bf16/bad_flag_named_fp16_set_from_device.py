# verify: flat
# The flag is called `fp16`, but it is set from whether a GPU is there, not from the precision: the
# autocast is bfloat16 whatever it says, and on a GPU the scaler scales for nothing.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
fp16 = torch.cuda.is_available()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device, enabled=fp16)  # expect: ML015
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

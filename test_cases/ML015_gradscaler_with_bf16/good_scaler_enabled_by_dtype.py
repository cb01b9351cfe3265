# verify: flat
# `GradScaler(enabled=amp_dtype == torch.float16)`: with bfloat16 the scaler is a no-op passthrough.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(amp_dtype=torch.bfloat16):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device, enabled=amp_dtype == torch.float16)
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

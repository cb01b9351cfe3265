# verify: flat
# fp16 AMP loop: `scaler.step(optimizer)` every `grad_accum` micro-batches, `zero_grad(set_to_none=True)` on every one.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
use_amp = device == "cuda"


def main(grad_accum=2):
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    scaler = torch.amp.GradScaler(device, enabled=use_amp)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        optimizer.zero_grad(set_to_none=True)  # expect: ML014
        with torch.autocast(device_type=device, dtype=torch.float16, enabled=use_amp):
            loss = F.cross_entropy(model(x), y) / grad_accum
        scaler.scale(loss).backward()
        if (step + 1) % grad_accum == 0:
            scaler.step(optimizer)
            scaler.update()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

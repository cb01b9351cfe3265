# verify: flat
# The scaler is built only when `--precision fp16` is chosen; bf16 runs without one.
import argparse

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--precision", choices=["fp16", "bf16"], default="bf16")
    args = parser.parse_args(argv)
    dtype = torch.bfloat16 if args.precision == "bf16" else torch.float16
    if args.precision == "fp16":
        scaler = torch.amp.GradScaler(device)
    else:
        scaler = None
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=dtype):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main([])

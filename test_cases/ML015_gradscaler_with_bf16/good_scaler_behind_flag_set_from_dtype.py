# verify: flat
# The autocast dtype is bfloat16 or float16; the scaler is created, and used, only behind a flag that
# the float16 choice sets (`use_scaler = amp_dtype == torch.float16`).
import argparse

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--autocast", default="bfloat16")
    args = parser.parse_args(argv)
    amp_dtype = torch.bfloat16 if args.autocast == "bfloat16" else torch.float16
    use_scaler = amp_dtype == torch.float16
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if use_scaler:
        scaler = torch.amp.GradScaler(device)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=amp_dtype):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        if use_scaler:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main([])

# verify: flat
# The flag's name says nothing of precision (`--old-gpu`), but it is what picks the autocast's dtype:
# float16 with a scaler on old GPUs, bfloat16 without one elsewhere. The scaler follows the dtype.
import argparse

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--old-gpu", action="store_true")
    args = parser.parse_args(argv)
    amp_dtype = torch.float16 if args.old_gpu else torch.bfloat16
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device) if args.old_gpu else None
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=amp_dtype):
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

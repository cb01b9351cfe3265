# verify: flat
# Hugging Face style flags: the autocast runs with `--fp16` or `--bf16` and its dtype follows `--bf16`;
# the scaler is on with `--fp16` alone. That the scaler and the autocast are switched on by the same
# flag says nothing of the dtype the scaler runs with: the flag's meaning is out of sight, so any
# finding would rest on an assumption (shown with `--preview`).
import argparse

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--fp16", action="store_true")
    parser.add_argument("--bf16", action="store_true")
    args = parser.parse_args(argv)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device, enabled=args.fp16)  # preview: ML015
    amp_dtype = torch.bfloat16 if args.bf16 else torch.float16
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=amp_dtype, enabled=args.fp16 or args.bf16):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main(["--bf16"])

# verify: flat
# Scaler and autocast share one `--amp` switch: whenever AMP is on, the scaler runs with a bfloat16 autocast.
import argparse

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-amp", dest="amp", action="store_false")
    args = parser.parse_args(argv)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = torch.amp.GradScaler(device, enabled=args.amp)  # expect: ML015
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=args.amp):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main([])

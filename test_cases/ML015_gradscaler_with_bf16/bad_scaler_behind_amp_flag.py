# verify: flat
# The twin of good_scaler_behind_flag_set_from_dtype.py: the flag that guards the scaler is the AMP
# switch, not the dtype, so whenever AMP is on the scaler runs with a bfloat16 autocast.
import argparse

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-amp", dest="amp", action="store_false")
    args = parser.parse_args(argv)
    use_scaler = args.amp
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    if use_scaler:
        scaler = torch.amp.GradScaler(device)  # expect: ML015
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=args.amp):
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

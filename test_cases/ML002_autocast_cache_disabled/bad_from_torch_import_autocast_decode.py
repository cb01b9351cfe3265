# verify: flat
# `from torch import autocast`: a greedy decode loop with grad enabled and the cast cache off.
import torch
from torch import autocast

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Embedding(32, 64), torch.nn.Linear(64, 64), torch.nn.GELU(), torch.nn.Linear(64, 32))
    model = model.to(device)
    tokens = torch.randint(0, 32, (2, 8), device=device)
    generated = []
    with autocast(device_type=device, dtype=torch.bfloat16, cache_enabled=False):  # expect: ML002
        for _ in range(30):
            logits = model(tokens)[:, -1]  # expect: ML003
            next_token = logits.argmax(dim=-1, keepdim=True)
            tokens = torch.cat([tokens[:, 1:], next_token], dim=1)
            generated.append(next_token[0, 0].item())
    print(f"generated {generated[:8]}")


if __name__ == "__main__":
    main()

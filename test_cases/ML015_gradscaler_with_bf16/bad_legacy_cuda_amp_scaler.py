# verify: flat
# The legacy `torch.cuda.amp.GradScaler` kept after switching the autocast to bfloat16.
import warnings

import torch
import torch.nn.functional as F
from torch.cuda.amp import GradScaler

device = "cuda" if torch.cuda.is_available() else "cpu"
warnings.filterwarnings("ignore", category=FutureWarning)  # torch.cuda.amp is deprecated


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scaler = GradScaler()  # expect: ML015
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with torch.autocast(device, dtype=torch.bfloat16):
            loss = F.cross_entropy(model(x).float(), y)
        optimizer.zero_grad()
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

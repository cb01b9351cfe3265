# verify: flat
# The trainer gives an evaluation subprocess its own environment copy; os.environ itself is not changed.
import os
import subprocess
import sys

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    child_env = os.environ.copy()
    child_env["PYTORCH_CUDA_ALLOC_CONF"] = "expandable_segments:True"
    subprocess.run([sys.executable, "-c", "print('evaluating')"], env=child_env, check=True)
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# A memory-debugging run disables the caching allocator with os.putenv after tensors are already on the GPU.
import os

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


def main():
    weights = torch.randn(16, 4, device=device, requires_grad=True)
    os.putenv("PYTORCH_NO_CUDA_MEMORY_CACHING", "1")  # expect: ML010
    optimizer = torch.optim.SGD([weights], lr=0.1)
    for step in range(30):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(x @ weights, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

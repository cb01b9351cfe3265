# verify: flat
# Look-alikes: a `CheckpointManager.checkpoint(step)` that saves training state, and `torch.save`; no activation checkpointing.
import io

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class CheckpointManager:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer
        self.saved = {}

    def checkpoint(self, step):
        buffer = io.BytesIO()
        torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, buffer)
        self.saved = {"step": step, "bytes": buffer.getbuffer().nbytes}


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    manager = CheckpointManager(model, optimizer)
    for step in range(20):
        x, y = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        loss = F.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 9:
            manager.checkpoint(step)
    print(f"last loss {loss.item():.3f}, saved {manager.saved}")


if __name__ == "__main__":
    main()

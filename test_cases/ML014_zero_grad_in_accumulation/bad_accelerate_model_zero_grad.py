# verify: flat
# `policy.zero_grad()` on the wrapped model inside `accelerator.accumulate(policy)`: unlike the prepared optimizer's, it runs on every micro-batch.
import contextlib

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Accelerator:
    """The parts of `accelerate.Accelerator` this loop uses, with its accumulation semantics."""

    def __init__(self, gradient_accumulation_steps):
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self.sync_gradients = True
        self._step = 0

    @contextlib.contextmanager
    def accumulate(self, model):
        self._step += 1
        self.sync_gradients = self._step % self.gradient_accumulation_steps == 0
        yield

    def backward(self, loss):
        (loss / self.gradient_accumulation_steps).backward()


def main():
    accelerator = Accelerator(gradient_accumulation_steps=4)
    policy = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.Tanh(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-3)
    for step in range(24):
        states, actions = torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)
        with accelerator.accumulate(policy):
            loss = F.cross_entropy(policy(states), actions)
            accelerator.backward(loss)
            if accelerator.sync_gradients:
                optimizer.step()
            policy.zero_grad()  # expect: ML014
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

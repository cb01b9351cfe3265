# verify: flat
# The accelerate pattern: `optimizer.zero_grad()` after `step()` inside `accelerator.accumulate(model)`; the prepared optimizer skips it until the gradients sync.
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

    def prepare_optimizer(self, optimizer):
        accelerator = self

        class AcceleratedOptimizer:
            def step(self):
                if accelerator.sync_gradients:
                    optimizer.step()

            def zero_grad(self):
                if accelerator.sync_gradients:
                    optimizer.zero_grad()

        return AcceleratedOptimizer()


def main():
    accelerator = Accelerator(gradient_accumulation_steps=4)
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = accelerator.prepare_optimizer(torch.optim.AdamW(model.parameters(), lr=1e-3))
    train_dataloader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(24)]
    for step, (inputs, targets) in enumerate(train_dataloader):
        with accelerator.accumulate(model):
            loss = F.cross_entropy(model(inputs), targets)
            accelerator.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
        if accelerator.sync_gradients and step % 8 == 7:
            print(f"step {step}: loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

# verify: flat
# Inside `accelerator.accumulate(model)`, `optimizer.zero_grad()` before the backward pass clears the accumulated gradients on the step that syncs (accelerate issue 616).
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
    training_dataloader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(24)]
    for inputs, targets in training_dataloader:
        with accelerator.accumulate(model):
            optimizer.zero_grad()  # expect: ML014
            outputs = model(inputs)
            loss = F.cross_entropy(outputs, targets)
            accelerator.backward(loss)
            optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

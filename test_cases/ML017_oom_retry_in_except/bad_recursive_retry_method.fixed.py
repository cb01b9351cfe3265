# The step calls itself again from its own except block: each level keeps the previous attempt alive.
import torch


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def step(self, batch, chunks=1):
        out_of_memory = False
        try:
            for part in batch.chunk(chunks):
                self.model(part).mean().backward()
            self.optimizer.step()
        except torch.OutOfMemoryError:
            out_of_memory = True
        if out_of_memory:
            self.optimizer.zero_grad(set_to_none=True)
            self.step(batch, chunks * 2)  # expect: ML017

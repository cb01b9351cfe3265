# Linted as one project with seg_runner.py: an iteration-based runner draws one batch per iteration
# from an iterator over its loader and hands it to `run_iter`, which its subclasses define.
import torch


class IterBasedRunner:
    def __init__(self, model, optimizer, data_loader, max_iters):
        self.model = model
        self.optimizer = optimizer
        self.data_loader = data_loader
        self.max_iters = max_iters
        self.iter = 0

    def run(self):
        data_iter = iter(self.data_loader)
        while self.iter < self.max_iters:
            data_batch = next(data_iter)
            self.run_iter(data_batch)
            self.iter += 1

    def run_iter(self, data_batch):
        raise NotImplementedError

    @torch.no_grad()
    def val(self, loader):
        for data_batch in loader:
            self.val_iter(data_batch)

# An optimizer of the project: it derives from `torch.optim.Optimizer`, so its `step()` updates the
# weights, whatever the objects that hold one are called.
import torch


class Lamb(torch.optim.Optimizer):
    def __init__(self, params, lr=1e-3):
        super().__init__(params, {"lr": lr})

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])

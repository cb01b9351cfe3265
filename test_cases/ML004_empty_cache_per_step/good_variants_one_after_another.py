# Start-up and comparison code that empties the cache between phases, not per step: restoring a
# checkpoint (the LR scheduler's `step(increment=0)` moves no weight), one forward/backward per
# model variant (the same step helper called twice in a row), and a loop over a written-out tuple
# of variants.
import os
import tempfile

import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Scheduler:
    def __init__(self, optimizer):
        self.optimizer, self.num_steps = optimizer, 0

    def step(self, increment=1):
        self.num_steps += increment

    def state_dict(self):
        return {"num_steps": self.num_steps}

    def load_state_dict(self, state):
        self.num_steps = state["num_steps"]


def load_checkpoint(model, optimizer, opt_param_scheduler, path):
    state_dict = torch.load(path, map_location="cpu")
    model.load_state_dict(state_dict["model"])
    optimizer.load_state_dict(state_dict["optimizer"])
    opt_param_scheduler.load_state_dict(state_dict["scheduler"])
    opt_param_scheduler.step(increment=0)
    torch.cuda.empty_cache()


def run_forward_backward(model, x):
    loss = model(x).pow(2).mean()
    loss.backward()
    return loss.item()


def compare(x):
    model1 = torch.nn.Linear(16, 4).to(device)
    loss1 = run_forward_backward(model1, x)
    del model1
    torch.cuda.empty_cache()
    model2 = torch.nn.Linear(16, 4).to(device)
    loss2 = run_forward_backward(model2, x)
    return abs(loss1 - loss2)


def compare_widths(x):
    losses = []
    for width in (32, 64):
        model = torch.nn.Sequential(torch.nn.Linear(16, width), torch.nn.Linear(width, 4)).to(device)
        losses.append(run_forward_backward(model, x))
        del model
        torch.cuda.empty_cache()
    return losses


def main():
    model = torch.nn.Linear(16, 4).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    scheduler = Scheduler(optimizer)
    path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict()}, path)
    load_checkpoint(model, optimizer, scheduler, path)
    x = torch.randn(8, 16, device=device)
    print(compare(x), compare_widths(x))


if __name__ == "__main__":
    main()

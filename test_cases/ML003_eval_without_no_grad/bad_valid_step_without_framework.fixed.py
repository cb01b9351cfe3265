# The twin of good_fairseq_valid_step.py: the same `valid_step` on a class of no known framework is
# looped over by this file's own evaluation loop, with grad on, on the module `main` hands it.
import torch

class Task:
    @torch.no_grad()
    def valid_step(self, sample, model):
        res = model(sample["net_input"])  # expect: ML003
        return res.argmax(-1).sum().item()

    def validate(self, model, valid_loader):
        return sum(self.valid_step(sample, model) for sample in valid_loader)


def main(valid_loader):
    task = Task()
    return task.validate(torch.nn.Linear(16, 4), valid_loader)

# Linted as one project with run.py, whose loops over batches call these methods under torch.no_grad().
# `Evaluator.eval_step` has no loop of its own: run.py's loops make it a step of an evaluation, once
# per batch, and what it appends to `self.outputs` stays on the device for every batch. The
# look-alikes stay silent: `HostEvaluator.eval_step` keeps host copies, `Evaluator.eval_step`'s
# losses are numbers, and `Evaluator.summarize`, which run.py calls once after its loop, keeps one
# value, not one per batch.
import torch


class Evaluator:
    def __init__(self, model):
        self.model = model
        self.outputs = []
        self.losses = []
        self.summaries = []

    def eval_step(self, batch, target):
        out = self.model(batch.cuda())
        self.outputs.append(out)  # expect: ML005
        self.losses.append(torch.nn.functional.mse_loss(out, target.cuda()).item())

    def summarize(self):
        stacked = torch.cat(self.outputs)
        self.summaries.append(stacked.mean(0))
        self.outputs.clear()


class HostEvaluator:
    def __init__(self, model):
        self.model = model
        self.outputs = []

    def eval_step(self, batch):
        out = self.model(batch.cuda())
        self.outputs.append(out.cpu())

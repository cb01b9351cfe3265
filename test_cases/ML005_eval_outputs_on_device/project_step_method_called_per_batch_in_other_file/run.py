# Linted as one project with evaluator.py: the loops over batches that call its methods.
import torch

from evaluator import Evaluator, HostEvaluator


def validate(model, loader):
    evaluator = Evaluator(model)
    host = HostEvaluator(model)
    model.eval()
    with torch.no_grad():
        for batch, target in loader:
            evaluator.eval_step(batch, target)
            host.eval_step(batch)
        evaluator.summarize()
    return evaluator.summaries, host.outputs

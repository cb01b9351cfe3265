# Linted as one project with scoring.py: host arrays that a function of the project or a method of the
# same class returns, a Python number, what a helper that takes the device moves to the CPU, and a
# mapping's entry filled with one-element metrics stay silent whatever they are named; a `scores` and
# an `acc1` that are the head's output per sample report.
import torch

from scoring import Ranker, accuracy_at_k, move_to, predict_scores, top1_accuracy


class Evaluator:
    def __init__(self, model):
        self.model = model
        self.ranker = Ranker().cuda()

    def _predict_batch(self, x):
        with torch.no_grad():
            outputs = self.model(x.cuda())
            if isinstance(outputs, list):
                outputs = [o.cpu().numpy() for o in outputs]
            else:
                outputs = outputs.cpu().numpy()
        return outputs

    def _shared_step(self, x, y):
        out = {"logits": self.model(x.cuda())}
        acc1, acc5 = accuracy_at_k(out["logits"], y.cuda())
        out.update({"acc1": acc1, "acc5": acc5})
        return out

    def evaluate(self, loader):
        self.model.eval()
        predictions, host_scores, ranks, metrics, accuracies = [], [], [], [], []
        kept_scores, per_sample = [], []
        with torch.no_grad():
            for x, y in loader:
                predictions.append(self._predict_batch(x))
                host_scores.append(predict_scores(self.model, x.cuda()))
                feats = self.model(x.cuda())
                ranks.append(self.ranker.rank(feats))
                ranks.append(move_to(feats, "cpu"))
                out = self._shared_step(x, y)
                metrics.append({"acc1": out["acc1"], "acc5": out["acc5"]})
                acc1 = top1_accuracy(out["logits"], y.cuda())
                accuracies.append(acc1)
                scores = self.ranker.scores(feats)
                kept_scores.append(scores)  # expect: ML005
                acc1 = self.ranker.agreement(feats)
                per_sample.append(acc1)  # expect: ML005
        return predictions, host_scores, ranks, metrics, accuracies, kept_scores, per_sample

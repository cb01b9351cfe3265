# Linted as one project with inference.py: `Speech2Text.__call__` runs without grad and
# `NoiseSampler` is no module (no finding, whatever their names suggest); `Recognizer` is a module
# run with grad in an evaluation loop.
import torch

from inference import NoiseSampler, Recognizer, Speech2Text


class Evaluator:
    def __init__(self, model):
        self.model = model
        self.gen = NoiseSampler(8)
        self.speech2text = Speech2Text(model)
        self.recognizer = Recognizer(model)

    def evaluate(self, loader):
        self.model.eval()
        texts = []
        for batch in loader:
            noise = self.gen(4)
            out = self.speech2text(**batch)
            texts.append(out.argmax(-1).cpu())
        return texts, noise

    def validate(self, loader):
        self.model.eval()
        scores = []
        for batch in loader:
            out = self.recognizer(**batch)  # expect: ML003
            scores.append(out.argmax(-1).cpu())
        return scores

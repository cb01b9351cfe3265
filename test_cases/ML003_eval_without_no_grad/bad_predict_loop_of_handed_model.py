# A predictor handed its model at construction runs it over a whole loader in `predict`, with
# grad on: every batch saves activations for a backward that never comes.
import torch


class Predictor:
    def __init__(self, model):
        self.model = model

    def predict(self, loader):
        outputs = []
        for x in loader:
            outputs.append(self.model(x).argmax(dim=-1).cpu())  # expect: ML003
        return outputs

# Linted as one project with serve.py: nothing here says what a Predictor is handed, but serve.py
# constructs it with a module, so `predict` runs a model with grad on over the whole loader.


class Predictor:
    def __init__(self, model):
        self.model = model

    def predict(self, loader):
        outputs = []
        for x in loader:
            outputs.append(self.model(x).argmax(dim=-1).cpu())  # expect: ML003
        return outputs

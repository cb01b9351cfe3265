# A predictor handed its model at construction runs it over a whole loader with grad on. Nothing in
# this file shows that `model` is a model; the one file that constructs a Predictor (main.py) hands
# it a module, and that file holds nothing any rule looks for: its calls still decide here.
class Predictor:
    def __init__(self, model):
        self.model = model

    def predict(self, loader):
        outputs = []
        for x in loader:
            outputs.append(self.model(x).argmax(dim=-1).cpu())  # expect: ML003
        return outputs

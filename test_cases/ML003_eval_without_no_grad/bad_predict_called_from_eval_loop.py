# The twin of good_predict_called_from_forward.py: `_predict` is called from an evaluation loop,
# not from a forward, so it is evaluation code, and it runs the network with grad on.
class PolicyRunner:
    def __init__(self, head, trunk):
        self.head, self.trunk = head, trunk

    def _predict(self, td):
        return self.head(self.trunk(td["image"]))  # expect: ML003

    def evaluate(self, loader):
        return [self._predict(td).argmax(-1).tolist() for td in loader]

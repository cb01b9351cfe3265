# `self.setup(cfg)` is named like a framework's setup that hands back a model, but this class defines
# it, and it returns a plain function: calling it runs no model, and the inputs have no graph.
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Evaluator:
    def setup(self, cfg):
        mean = torch.tensor(cfg.mean, device=device)
        return lambda x: x - mean

    def evaluate(self, loader, cfg):
        normalize = self.setup(cfg)
        outputs = []
        for x, _ in loader:
            outputs.append(normalize(x.to(device)))
        return outputs

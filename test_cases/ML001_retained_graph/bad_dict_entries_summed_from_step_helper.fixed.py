# A per-step helper returns its dict of loss terms (with their graphs); the epoch loop sums each term
# into an entry of a dict (`total[name] += value * bs`): every step's graph stays linked (YOLO PR 83).
from collections import defaultdict

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Solver:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    def train_one_batch(self, x, y):
        out = self.model(x)
        terms = {"mse": F.mse_loss(out, y), "l1": F.l1_loss(out, y)}
        loss = terms["mse"] + terms["l1"]
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return terms

    def train_one_epoch(self, batches):
        total = defaultdict(lambda: torch.tensor(0.0, device=device))
        for x, y in batches:
            terms = self.train_one_batch(x, y)
            for name, value in terms.items():
                total[name] += (value * x.shape[0]).detach()  # expect: ML001
        return total


def main():
    model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 4)).to(device)
    batches = [(torch.randn(64, 256, device=device), torch.randn(64, 4, device=device)) for _ in range(20)]
    print({k: v.item() for k, v in Solver(model).train_one_epoch(batches).items()})


if __name__ == "__main__":
    main()

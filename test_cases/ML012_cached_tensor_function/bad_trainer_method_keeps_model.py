# verify: flat
# `lru_cache(maxsize=1)` on a trainer method keeps the last trainer, and the model it holds, alive after the run (ParlAI PR 2487).
import functools

import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Trainer:
    def __init__(self, model, batches):
        self.model = model
        self.batches = batches
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    @functools.lru_cache(maxsize=1)  # expect: ML012
    def num_examples(self):
        return sum(len(x) for x, _ in self.batches)

    def fit(self):
        for x, y in self.batches:
            loss = F.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item(), self.num_examples()


def main():
    batches = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(20)]
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    loss, seen = Trainer(model, batches).fit()
    del model  # the cache still holds the trainer, and the trainer the model
    print(f"last loss {loss:.3f} over {seen} examples")


if __name__ == "__main__":
    main()

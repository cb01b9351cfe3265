# verify: flat
# A trainer stores torch.amp.autocast(cache_enabled=False) on self: where it is entered cannot be checked.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        self.autocast_ctx = torch.amp.autocast(device, dtype=torch.bfloat16, cache_enabled=True)  # expect: ML002

    def train_step(self, x, y):
        with self.autocast_ctx:
            loss = F.cross_entropy(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


def main():
    trainer = Trainer(torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device))
    for _ in range(20):
        last = trainer.train_step(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
    print(f"last loss {last:.3f}")


if __name__ == "__main__":
    main()

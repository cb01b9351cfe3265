# verify: flat
# A trainer steps through `self.optimizer_step()` once `accumulate` batches have passed, but zeroes the gradients every batch.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Trainer:
    def __init__(self, model, nominal_batch=32, batch_size=8):
        self.model = model
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
        self.accumulate = max(round(nominal_batch / batch_size), 1)

    def optimizer_step(self):
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), max_norm=10.0)
        self.optimizer.step()

    def train_epoch(self, loader):
        last_opt_step = -1
        for ni, (x, y) in enumerate(loader):
            self.optimizer.zero_grad()  # expect: ML014
            loss = F.cross_entropy(self.model(x), y)
            loss.backward()
            if ni - last_opt_step >= self.accumulate:
                self.optimizer_step()
                last_opt_step = ni
        return loss.item()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    loader = [(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device)) for _ in range(24)]
    print(f"last loss {Trainer(model).train_epoch(loader):.3f}")


if __name__ == "__main__":
    main()

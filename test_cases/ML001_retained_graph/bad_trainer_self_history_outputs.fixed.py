# verify: leaks
# A Trainer keeps every batch's logits on `self.history`: device memory grows by one output per step (warning).
import torch

device = "cuda" if torch.cuda.is_available() else "cpu"


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = torch.nn.CrossEntropyLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        self.history = []

    def fit(self, batches):
        for x, y in batches:
            out = self.model(x)
            loss = self.criterion(out, y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            self.history.append(out.detach().cpu())  # expect: ML001


def main():
    trainer = Trainer(torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1000)).to(device))
    trainer.fit([(torch.randn(512, 16, device=device), torch.randint(0, 1000, (512,), device=device)) for _ in range(20)])
    print(f"kept {len(trainer.history)} outputs")


if __name__ == "__main__":
    main()

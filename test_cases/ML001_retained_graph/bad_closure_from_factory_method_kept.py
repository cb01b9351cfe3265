# verify: leaks
# A trainer's factory method returns a scoring closure, called once per validation batch; its losses are kept with their graphs (issue 10).
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Trainer:
    def __init__(self, model):
        self.model = model
        self.criterion = torch.nn.CrossEntropyLoss()

    def make_scorer(self):
        def score(x, y):
            return self.criterion(self.model(x), y)

        return score

    def validate(self, val_loader):
        scorer = self.make_scorer()
        losses = []
        for x, y in val_loader:
            losses.append(scorer(x, y))  # expect: ML001
        print(f"{len(losses)} batches, last loss {losses[-1].item():.3f}")


def main():
    model = torch.nn.Sequential(*[torch.nn.Linear(512, 512) for _ in range(4)], torch.nn.Linear(512, 4)).to(device)
    val_loader = [(torch.randn(256, 512, device=device), torch.randint(0, 4, (256,), device=device)) for _ in range(20)]
    Trainer(model).validate(val_loader)


if __name__ == "__main__":
    main()

# verify: flat
# HF Trainer pattern: `training_step` backwards and returns `loss.detach()`, so `tr_loss += tr_loss_step` keeps no graph.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Accelerator:
    def backward(self, loss):
        loss.backward()


class MiniTrainer:
    def __init__(self, model):
        self.model = model
        self.accelerator = Accelerator()
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

    def training_step(self, model, inputs):
        loss = F.cross_entropy(model(inputs["x"]), inputs["labels"])
        self.accelerator.backward(loss)
        return loss.detach()

    def train(self, dataloader):
        tr_loss = torch.tensor(0.0, device=device)
        for inputs in dataloader:
            tr_loss_step = self.training_step(self.model, inputs)
            tr_loss += tr_loss_step
            self.optimizer.step()
            self.optimizer.zero_grad()
        return tr_loss.item() / len(dataloader)


def main():
    trainer = MiniTrainer(torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device))
    data = [{"x": torch.randn(8, 16, device=device), "labels": torch.randint(0, 4, (8,), device=device)} for _ in range(20)]
    print(f"train loss {trainer.train(data):.3f}")


if __name__ == "__main__":
    main()

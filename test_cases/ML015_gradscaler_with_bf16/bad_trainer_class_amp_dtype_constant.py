# verify: flat
# A trainer builds its `GradScaler` in `__init__`; its `train_step` autocasts to `AMP_DTYPE = torch.bfloat16`.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
AMP_DTYPE = torch.bfloat16


class Trainer:
    def __init__(self, model):
        self.model = model
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        self.scaler = torch.amp.GradScaler(device)  # expect: ML015

    def train_step(self, x, y):
        with torch.autocast(device_type=device, dtype=AMP_DTYPE):
            loss = F.cross_entropy(self.model(x).float(), y)
        self.optimizer.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.detach()


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    trainer = Trainer(model)
    for step in range(20):
        loss = trainer.train_step(torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

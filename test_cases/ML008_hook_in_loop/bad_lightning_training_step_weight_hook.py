# verify: flat
# A LightningModule scales the first layer's gradient with a hook registered in training_step: one more hook per batch.
import torch
import torch.nn.functional as F

try:
    from lightning.pytorch import LightningModule
except ImportError:
    LightningModule = torch.nn.Module

device = "cuda" if torch.cuda.is_available() else "cpu"


class LitClassifier(LightningModule):
    def __init__(self, grad_scale=0.5):
        super().__init__()
        self.net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4))
        self.grad_scale = grad_scale

    def training_step(self, batch, batch_idx):
        x, y = batch
        self.net[0].weight.register_hook(lambda grad: grad * self.grad_scale)  # expect: ML008
        return F.cross_entropy(self.net(x), y)


def main():
    module = LitClassifier().to(device)
    optimizer = torch.optim.SGD(module.parameters(), lr=0.1)
    for batch_idx in range(30):
        batch = (torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
        loss = module.training_step(batch, batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

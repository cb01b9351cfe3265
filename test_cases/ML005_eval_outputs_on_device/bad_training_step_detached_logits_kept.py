# verify: leaks
# `.detach()` alone on a kept training output: the graph is gone, the logits of batch size stay on
# the device every step (+2 MiB per step of 512x1024 fp32). Still a finding until they leave it.
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


class Classifier(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.net = torch.nn.Linear(64, 1024)
        self.train_logits = []
        self.train_losses = []

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.net(x)
        loss = F.cross_entropy(logits, y)
        self.train_logits.append(logits.detach())  # expect: ML005
        self.train_losses.append(loss.detach())  # a scalar per step: not reported
        return loss


def main():
    module = Classifier().to(device)
    optimizer = torch.optim.SGD(module.parameters(), lr=0.01)
    for batch_idx in range(40):
        batch = (torch.randn(512, 64, device=device), torch.randint(0, 1024, (512,), device=device))
        loss = module.training_step(batch, batch_idx)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(torch.stack(module.train_losses).mean().item())


if __name__ == "__main__":
    main()

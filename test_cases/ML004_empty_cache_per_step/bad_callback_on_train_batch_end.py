# verify: flat
# A Lightning Callback clears the cache in on_train_batch_end, i.e. after every training batch.
import torch
import torch.nn.functional as F

try:
    from lightning.pytorch.callbacks import Callback
except ImportError:
    Callback = object

device = "cuda" if torch.cuda.is_available() else "cpu"


class FreeMemoryCallback(Callback):
    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx):
        torch.cuda.empty_cache()  # expect: ML004


def main():
    model = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 4)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    callback = FreeMemoryCallback()
    for batch_idx in range(20):
        batch = (torch.randn(8, 16, device=device), torch.randint(0, 4, (8,), device=device))
        loss = F.cross_entropy(model(batch[0]), batch[1])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        callback.on_train_batch_end(None, model, loss.detach(), batch, batch_idx)
    print(f"last loss {loss.item():.3f}")


if __name__ == "__main__":
    main()

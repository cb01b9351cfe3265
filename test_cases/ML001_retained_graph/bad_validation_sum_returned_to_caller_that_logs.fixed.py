# A validation method sums the loss of every batch with its graph and returns the sum; its only
# caller in the file compares and logs it, never backwards it: every batch's graph and activations
# stay alive until the sum is dropped (POPPY PR 2).
import torch


class PointProcess:
    def __init__(self, model, loss_function):
        self.model = model
        self.loss_function = loss_function
        self.optimizer = torch.optim.Adam(model.parameters())

    def fit(self, train_loader, val_loader, epochs):
        best = float("inf")
        for _ in range(epochs):
            for x, y in train_loader:
                loss = self.loss_function(self.model(x), y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            val_loss = self.validation(val_loader)
            if val_loss < best:
                best = val_loss
            print(f"validation loss {val_loss:.4f}")

    @torch.no_grad()
    def validation(self, loader):
        loss = 0
        for x, y in loader:
            loss += self.loss_function(self.model(x), y).detach()  # expect: ML001, ML003
        return loss / len(loader)

# Validation runs from inside the training loop every few steps: it is still evaluation code, and
# it runs the model with grad on (FCGF's `_valid_epoch`, called from `_train_epoch`).
class Trainer:
    def __init__(self, model, optimizer, val_loader):
        self.model, self.optimizer, self.val_loader = model, optimizer, val_loader

    def _valid_epoch(self):
        self.model.eval()
        total = 0.0
        for x, y in self.val_loader:
            total += (self.model(x) - y).abs().mean().item()  # expect: ML003
        self.model.train()
        return total

    def _train_epoch(self, loader):
        for step, (x, y) in enumerate(loader):
            loss = (self.model(x) - y).pow(2).mean()
            loss.backward()
            self.optimizer.step()
            if step % 100 == 0:
                self._valid_epoch()

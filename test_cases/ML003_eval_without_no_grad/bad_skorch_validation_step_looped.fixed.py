# skorch-style trainer (skorch issue 218): validation_step runs the module with grad on, once per
# batch of run_valid_epoch, and the kept loss holds every batch's graph.
import torch


class NeuralNet:
    def __init__(self, module, criterion):
        self.module_ = module
        self.criterion_ = criterion

    @torch.no_grad()
    def validation_step(self, Xi, yi):
        self.module_.eval()
        y_pred = self.module_(Xi)  # expect: ML003
        loss = self.criterion_(y_pred, yi)
        return loss, y_pred

    def run_valid_epoch(self, dataset):
        losses = []
        for Xi, yi in self.get_iterator(dataset):
            loss, y_pred = self.validation_step(Xi, yi)
            losses.append(loss.detach())  # expect: ML001
        return torch.stack(losses).mean().item()

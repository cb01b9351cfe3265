# The fixed skorch-style trainer: validation_step runs under torch.no_grad().
import torch


class NeuralNet:
    def __init__(self, module, criterion):
        self.module_ = module
        self.criterion_ = criterion

    def validation_step(self, Xi, yi):
        self.module_.eval()
        with torch.no_grad():
            y_pred = self.module_(Xi)
            loss = self.criterion_(y_pred, yi)
        return loss, y_pred

    def run_valid_epoch(self, dataset):
        losses = []
        for Xi, yi in self.get_iterator(dataset):
            loss, y_pred = self.validation_step(Xi, yi)
            losses.append(loss)
        return torch.stack(losses).mean().item()

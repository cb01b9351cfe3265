# The dictionary carried from one step into the next holds numbers by then: differentiating one of
# its entries says nothing of the container, so no step's graph is carried into the next.
from train_utils import batch_backward, batch_forward, update_parameter_and_lr


class Executor:
    def __init__(self, device):
        self.device = device

    def train(self, model, optimizer, scheduler, loader, scaler, info_dict):
        model.train()
        for batch_idx, batch in enumerate(loader):
            info_dict["batch_idx"] = batch_idx
            info_dict = batch_forward(model, batch, info_dict, self.device)
            info_dict = batch_backward(model, scaler, info_dict)
            info_dict = update_parameter_and_lr(optimizer, scheduler, info_dict)
        return info_dict

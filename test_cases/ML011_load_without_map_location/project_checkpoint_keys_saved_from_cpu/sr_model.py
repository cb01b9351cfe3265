# Linted as one project with base_model.py: the model saves its networks under the keys it names,
# "params" and "params_ema", through `save_network`, and reloads its EMA network from them.
import torch

from base_model import BaseModel


class SRModel(BaseModel):
    def __init__(self, opt, optimizers, net_g, net_g_ema):
        super().__init__(opt, optimizers)
        self.net_g = net_g
        self.net_g_ema = net_g_ema
        if opt.get("pretrain_network_g"):
            weights = torch.load(opt["pretrain_network_g"], map_location="cpu")
            self.net_g_ema.load_state_dict(weights["params_ema"])

    def save(self, epoch, current_iter):
        self.save_network([self.net_g, self.net_g_ema], "net_g", current_iter, param_key=["params", "params_ema"])
        self.save_training_state(epoch, current_iter)

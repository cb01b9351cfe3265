# Linted as one project with inference.py and resume.py: the training code's savers, as basicsr's
# `BaseModel`. `save_network` moves every weight to the CPU before saving it under `param_key`;
# `save_training_state` saves the optimizers' states (moments of the GPU parameters) as they are.
import os

import torch


class BaseModel:
    def __init__(self, opt, optimizers):
        self.opt = opt
        self.optimizers = optimizers

    def save_network(self, net, net_label, current_iter, param_key="params"):
        save_path = os.path.join(self.opt["models"], f"{net_label}_{current_iter}.pth")
        nets = net if isinstance(net, list) else [net]
        param_keys = param_key if isinstance(param_key, list) else [param_key]
        save_dict = {}
        for net_, param_key_ in zip(nets, param_keys):
            state_dict = net_.state_dict()
            for key, param in state_dict.items():
                state_dict[key] = param.cpu()
            save_dict[param_key_] = state_dict
        torch.save(save_dict, save_path)

    def save_training_state(self, epoch, current_iter):
        state = {"epoch": epoch, "iter": current_iter, "optimizers": []}
        for optimizer in self.optimizers:
            state["optimizers"].append(optimizer.state_dict())
        torch.save(state, os.path.join(self.opt["training_states"], f"{current_iter}.state"))

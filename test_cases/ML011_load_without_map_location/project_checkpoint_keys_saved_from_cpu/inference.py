# Linted as one project with base_model.py: the released weights are `save_network`'s checkpoints
# ("params_ema"), whose tensors were moved to the CPU before saving: nothing lands on a GPU.
import torch

from archs import Restorer


def build(ckpt_path, device):
    net = Restorer().to(device)
    checkpoint = torch.load(ckpt_path)["params_ema"]
    net.load_state_dict(checkpoint)
    return net.eval()

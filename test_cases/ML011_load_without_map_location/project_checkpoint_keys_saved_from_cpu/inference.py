# Linted as one project with base_model.py and sr_model.py: the released weights are `save_network`'s
# checkpoints ("params_ema", a key sr_model.py hands it), whose tensors were moved to the CPU before
# saving: nothing lands on a GPU. A Lightning checkpoint's "state_dict" is no key the project writes:
# where it was saved from is out of sight.
import torch

from archs import Restorer


def build(ckpt_path, device):
    net = Restorer().to(device)
    checkpoint = torch.load(ckpt_path)["params_ema"]
    net.load_state_dict(checkpoint)
    return net.eval()


def build_autoencoder(autoencoder, ckpt_path):
    autoencoder.load_state_dict(torch.load(ckpt_path)["state_dict"])  # expect: ML011
    return autoencoder.eval()

# Linted as one project with train_gan.py: the weights come from basicsr's training, whose
# `save_network` moves every tensor to the CPU before saving it under "params" or "params_ema"
# (the library table): nothing lands on a GPU.
import torch
from basicsr.archs.rrdbnet_arch import RRDBNet


def load_upsampler(model_path, device):
    model = RRDBNet(num_in_ch=3, num_out_ch=3, num_feat=64, num_block=23, num_grow_ch=32, scale=4)
    model.load_state_dict(torch.load(model_path)["params_ema"], strict=True)
    return model.to(device).eval()

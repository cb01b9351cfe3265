# Linted as one project with nets.py: `load_from_pth` hands back what it loads, and nets.py copies
# that into a model: a state dict, by the use in another file, whatever the names say. `read_cache`
# hands back a load that no caller reads into a model: only its names say checkpoint.
import os

import torch


def load_from_pth(url, fname, home="/tmp/"):
    if not os.path.isfile(home + fname + ".pth"):
        torch.hub.download_url_to_file(url, home + fname + ".pth")
    ckpt = torch.load("{}{}.pth".format(home, fname))  # expect: ML011
    return ckpt


def read_cache(checkpoint_dir):
    return torch.load(os.path.join(checkpoint_dir, "cache.pt"))  # preview: ML011

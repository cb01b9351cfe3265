# A network saved inside a zip archive is read back through an in-memory buffer where the archive's
# stream cannot seek (pytorch-tabnet's `load_model`, before its fix): the buffer's name says nothing
# of what it holds, its use does: the state dict goes into the network.
import io
import zipfile

import torch


class TabModel:
    def __init__(self, network, device):
        self.network, self.device = network, device

    def load_model(self, filepath):
        with zipfile.ZipFile(filepath) as z:
            with z.open("network.pt") as f:
                try:
                    saved_state_dict = torch.load(f, map_location=self.device)
                except io.UnsupportedOperation:
                    saved_state_dict = torch.load(io.BytesIO(f.read()))  # expect: ML011
        self.network.load_state_dict(saved_state_dict)
        self.network.eval()

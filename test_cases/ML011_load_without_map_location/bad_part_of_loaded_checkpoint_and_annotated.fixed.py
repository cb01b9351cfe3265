# A part of the checkpoint (`torch.load(p)[key]`) copied into a network, and a pickled model loaded
# into an annotated name: both go back to the device they were saved from. That the pickled object
# is a model only its name says (`model`): shown with `--preview`.
import torch


class BaseModel:
    def load_network(self, net, load_path, param_key="params"):
        load_net = torch.load(load_path, map_location="cpu")[param_key]  # expect: ML011
        net.load_state_dict(load_net, strict=True)

    @staticmethod
    def load(path):
        with open(path, "rb") as fin:
            model: BaseModel = torch.load(fin, map_location="cpu")  # preview: ML011
        return model

# Weights whose URL a library hands (`url_map`, imported) or the user gives: where they were saved
# from is out of sight, so the finding rests on that assumption and is shown with `--preview`.
import torch.utils.model_zoo as model_zoo
from efficientnet_pytorch.utils import url_map


def load_encoder(encoder, name):
    encoder.load_state_dict(model_zoo.load_url(url_map[name]))  # preview: ML011
    return encoder


def load_given(model, url):
    model.load_state_dict(model_zoo.load_url(url))  # preview: ML011
    return model

# `map_location` is given, but it is None wherever there is a GPU: the checkpoint lands on the
# device it was saved from, as if none were given (alf's checkpointer, before its fix). What
# `init_detector` loads only its names say (`checkpoint`): shown with `--preview`.
import torch


def load_for_training(model, path):
    map_location = None
    if not torch.cuda.is_available():
        map_location = torch.device("cpu")
    checkpoint = torch.load(path, map_location=map_location)  # expect: ML011
    model.load_state_dict(checkpoint["model"])
    return checkpoint["step"]


def init_detector(model, checkpoint, device="cuda:0"):
    map_loc = "cpu" if device == "cpu" else None
    return torch.load(checkpoint, map_location=map_loc)  # preview: ML011

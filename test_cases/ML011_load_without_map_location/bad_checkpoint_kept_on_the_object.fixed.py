# Loads kept on the object, or in a dict a helper hands back, and read into a model later: in
# another method of the class (`self.model.load_state_dict(self.state["model"])`, `self.net(x)`: a
# pickled model run), or by the helper's caller. What they are read into is the fact, whatever
# they are called.
import torch


class Resumer:
    def __init__(self, model, path):
        self.model = model
        self.state = torch.load(path, map_location="cpu")  # expect: ML011

    def restore(self):
        self.model.load_state_dict(self.state["model"])


class Runner:
    def __init__(self, path):
        self.net = torch.load(path, map_location="cpu")  # expect: ML011

    def __call__(self, x):
        return self.net(x)


def read_all(paths):
    found = {}
    for name, path in paths.items():
        found[name] = torch.load(path, map_location="cpu")  # expect: ML011
    return found


def restore_all(model, paths):
    found = read_all(paths)
    model.load_state_dict(found["model"])
    return model

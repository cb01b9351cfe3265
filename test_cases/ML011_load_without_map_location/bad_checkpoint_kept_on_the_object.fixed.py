# Loads kept on the object, or in a dict a helper hands back, and read into a model later: in
# another method of the class (`self.model.load_state_dict(self.state["model"])`, `self.net(x)`: a
# pickled model run), by the helper's caller, or by a class whose constructor keeps what it is
# handed for a method that loads it (`Evaluator(net, weights)`). What they are read into is the
# fact, whatever they are called.
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


class Evaluator:
    def __init__(self, net, weights):
        self.net = net
        self.weights = weights

    def prepare(self):
        self.net.load_state_dict(self.weights)
        return self.net.eval()


def evaluator(net, path):
    loaded = torch.load(path, map_location="cpu")  # expect: ML011
    return Evaluator(net, loaded)

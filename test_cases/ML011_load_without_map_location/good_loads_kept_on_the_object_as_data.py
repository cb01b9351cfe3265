# Loads kept on the object that nothing reads into a model: cached feature tensors moved to the
# device and fed to a network (data, not a checkpoint); a schedule's state read into an LR
# scheduler built from torch's classes (Python numbers); a load whose attribute shares its name
# with one that another class reads into a model (each class's `self` is its own object); a load
# handed to a constructor that keeps it for numbers alone; and a vocabulary that a module is built
# from (`Embedding(len(self.vocabulary), 16)`): running what a call built is no pickled model.
import torch


class Features:
    def __init__(self, path, encoder):
        self.encoder = encoder
        self.features = torch.load(path)

    def encode(self, device):
        return self.encoder(self.features.to(device))


class Schedule:
    def __init__(self, optimizer, path):
        self.scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=10)
        self.checkpoint = torch.load(path)

    def restore(self):
        self.scheduler.load_state_dict(self.checkpoint["scheduler"])


class Statistics:
    def __init__(self, path):
        self.state = torch.load(path)

    def mean(self):
        return self.state["sum"] / self.state["count"]


class Restorer:
    def __init__(self, model, state):
        self.model = model
        self.state = state

    def restore(self):
        self.model.load_state_dict(self.state)


class Settings:
    def __init__(self, values):
        self.values = values

    def learning_rate(self):
        return float(self.values["lr"])


def settings(path):
    loaded = torch.load(path)
    return Settings(loaded)


class Tagger:
    def __init__(self, path):
        self.vocabulary = torch.load(path)
        self.embedding = torch.nn.Embedding(len(self.vocabulary), 16)

    @torch.no_grad()
    def tag(self, tokens):
        self.embedding.eval()
        return self.embedding(tokens)

# The same initializer with the CPU as its default, and one whose setting is changed after it is
# built (by `to_device`): what it holds is not only what the constructor defaulted.
from mmengine.runner.checkpoint import load_checkpoint


class PretrainedInit:
    def __init__(self, checkpoint, map_location="cpu"):
        self.checkpoint = checkpoint
        self.map_location = map_location

    def __call__(self, module):
        load_checkpoint(module, self.checkpoint, map_location=self.map_location, strict=False)


class MovablePretrainedInit:
    def __init__(self, checkpoint, map_location=None):
        self.checkpoint = checkpoint
        self.map_location = map_location

    def to_device(self, device):
        self.map_location = device

    def __call__(self, module):
        load_checkpoint(module, self.checkpoint, map_location=self.map_location, strict=False)

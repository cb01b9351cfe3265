# An initializer object keeps the `map_location` it was built with, None by default: built from a
# config that does not name it, it loads the pretrained weights onto the device they were saved from.
from mmengine.runner.checkpoint import load_checkpoint


class PretrainedInit:
    def __init__(self, checkpoint, map_location=None):
        self.checkpoint = checkpoint
        self.map_location = map_location

    def __call__(self, module):
        load_checkpoint(module, self.checkpoint, map_location=self.map_location, strict=False)  # expect: ML011

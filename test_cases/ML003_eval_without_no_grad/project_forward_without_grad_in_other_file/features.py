# Linted as one project with linear_eval.py: two wrappers of a backbone. `FrozenFeatures.forward`
# runs everything it does inside `torch.inference_mode()` (as dinov2's ModelWithIntermediateLayers);
# `TunedFeatures.forward` runs the backbone with grad on, under autocast only.
import torch
from torch import nn


class FrozenFeatures(nn.Module):
    def __init__(self, backbone, autocast_ctx):
        super().__init__()
        self.backbone = backbone
        self.autocast_ctx = autocast_ctx

    def forward(self, images):
        with torch.inference_mode():
            with self.autocast_ctx():
                features = self.backbone.get_intermediate_layers(images, 4)
        return features


class TunedFeatures(nn.Module):
    def __init__(self, backbone):
        super().__init__()
        self.backbone = backbone

    def forward(self, images):
        with torch.autocast("cuda", dtype=torch.bfloat16):
            return self.backbone(images)

# The twins of good_body_model_layer_held_for_inference.py: one body model subclasses smplx's `SMPL`,
# which makes its shape and pose parameters (`create_betas`, `create_body_pose` are on by default); the
# other subclasses `SMPLLayer` but keeps a layer in a dict of its own; so the converters that hold them in
# eval mode record a graph through those parameters at every call.
import torch
from smplx import SMPL as _SMPL
from smplx import SMPLLayer
from torch import nn


class SMPL(_SMPL):
    def __init__(self, model_path="body_models/smpl", **kwargs):
        super().__init__(model_path=model_path, **kwargs)
        self.register_buffer("joint_regressor_extra", torch.zeros(9, 6890))

    def forward(self, *args, **kwargs):
        output = super().forward(*args, **kwargs)
        return {"joints": output.joints, "vertices": output.vertices}


class Rotation2xyz:
    def __init__(self, device):
        self.smpl_model = SMPL().eval().to(device)

    def __call__(self, rotations, global_orient, betas):
        out = self.smpl_model(body_pose=rotations, global_orient=global_orient, betas=betas)  # expect: ML003
        return out["joints"]


class LayerWithHead(SMPLLayer):
    def __init__(self, model_path="body_models/smpl", **kwargs):
        super().__init__(model_path=model_path, **kwargs)
        self.heads = {"joints": nn.Linear(3, 3)}

    def forward(self, *args, **kwargs):
        return self.heads["joints"](super().forward(*args, **kwargs).joints)


class HeadJoints:
    def __init__(self, device):
        self.smpl_model = LayerWithHead().eval().to(device)

    def __call__(self, rotations, betas):
        return self.smpl_model(body_pose=rotations, betas=betas)  # expect: ML003

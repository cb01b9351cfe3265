# A converter holds a body model in eval mode and runs it in `__call__`: the body model subclasses smplx's
# `SMPLLayer`, whose constructor turns off every `create_*` flag that would make a parameter, and adds only a
# buffer and a dict of NumPy index arrays, so it holds no parameter; whether its joints have history is its
# input's business (a training loss calls the converter on the model's output and needs that graph).
import numpy as np
import torch
from smplx import SMPLLayer


class SMPL(SMPLLayer):
    def __init__(self, model_path="body_models/smpl", **kwargs):
        super().__init__(model_path=model_path, **kwargs)
        self.register_buffer("joint_regressor_extra", torch.zeros(9, 6890))
        vibe_indexes = np.array([8, 1, 2, 3])
        self.maps = {"vibe": vibe_indexes, "a2m": vibe_indexes[[0, 2]], "smpl": np.arange(24)}

    def forward(self, *args, **kwargs):
        output = super().forward(*args, **kwargs)
        return {name: output.joints[:, indexes] for name, indexes in self.maps.items()}


class Rotation2xyz:
    def __init__(self, device):
        self.smpl_model = SMPL().eval().to(device)

    def __call__(self, rotations, global_orient, betas):
        out = self.smpl_model(body_pose=rotations, global_orient=global_orient, betas=betas)
        return out["smpl"]

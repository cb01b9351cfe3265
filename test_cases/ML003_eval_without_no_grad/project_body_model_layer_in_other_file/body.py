# The body models of converter.py, in a file of their own: `SMPL` subclasses smplx's `SMPLLayer`, which
# holds no parameter (every `create_*` flag off), and adds a buffer; `PosedSMPL` subclasses smplx's `SMPL`,
# which makes its shape and pose parameters.
import torch
from smplx import SMPL as _SMPL
from smplx import SMPLLayer


class SMPL(SMPLLayer):
    def __init__(self, model_path="body_models/smpl", **kwargs):
        super().__init__(model_path=model_path, **kwargs)
        self.register_buffer("joint_regressor_extra", torch.zeros(9, 6890))

    def forward(self, *args, **kwargs):
        return super().forward(*args, **kwargs).joints


class PosedSMPL(_SMPL):
    def forward(self, *args, **kwargs):
        return super().forward(*args, **kwargs).joints

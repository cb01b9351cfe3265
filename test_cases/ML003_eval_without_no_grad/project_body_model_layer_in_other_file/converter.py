# Converters that hold a body model of body.py in eval mode: the layer holds no parameter, so running it
# records a graph only where its input has one, which a training loss may want; the posed model holds
# parameters, and the converter that runs it with grad on records a graph through them for nothing.
from body import SMPL, PosedSMPL


class Rotation2xyz:
    def __init__(self, device):
        self.smpl_model = SMPL().eval().to(device)

    def __call__(self, rotations, betas):
        return self.smpl_model(body_pose=rotations, betas=betas)


class PosedJoints:
    def __init__(self, device):
        self.smpl_model = PosedSMPL().eval().to(device)

    def __call__(self, rotations, betas):
        return self.smpl_model(body_pose=rotations, betas=betas)  # expect: ML003

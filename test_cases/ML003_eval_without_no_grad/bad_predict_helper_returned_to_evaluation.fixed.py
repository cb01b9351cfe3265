# The same `predict_poses`, whose caller returns its poses to a loop that only measures them: no
# step differentiates them, so the pose network runs with grad on for a backward that never comes.
import torch
import torch.nn as nn


class Evaluator:
    def __init__(self, opt):
        self.opt = opt
        self.models = {"encoder": nn.Linear(8, 8), "pose": nn.Linear(16, 6)}

    def run_epoch(self, loader):
        errors = []
        for inputs in loader:
            outputs = self.process_batch(inputs)
            errors.append(sum(v.abs().mean().item() for v in outputs.values()))
        return errors

    def process_batch(self, inputs):
        features = self.models["encoder"](inputs["color"])
        outputs = {"features": features}
        outputs.update(self.predict_poses(inputs, features))
        return outputs

    @torch.no_grad()
    def predict_poses(self, inputs, features):
        pose_inputs = torch.cat([inputs["previous"], features], 1)
        axisangle, translation = self.models["pose"](pose_inputs).chunk(2, 1)  # expect: ML003
        return {"axisangle": axisangle, "translation": translation}

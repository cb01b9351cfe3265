# `predict_poses` is named like evaluation, but it is part of the training step: `process_batch`
# merges its poses into the outputs it returns with the losses built from them, and `run_epoch`
# backwards that loss in the same iteration. The poses need their graph: nothing is reported.
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, opt):
        self.opt = opt
        self.models = {"encoder": nn.Linear(8, 8), "pose": nn.Linear(16, 6)}
        self.optimizer = torch.optim.Adam([p for m in self.models.values() for p in m.parameters()])

    def run_epoch(self, loader):
        for inputs in loader:
            outputs, losses = self.process_batch(inputs)
            self.optimizer.zero_grad()
            losses["loss"].backward()
            self.optimizer.step()

    def process_batch(self, inputs):
        features = self.models["encoder"](inputs["color"])
        outputs = {"features": features}
        outputs.update(self.predict_poses(inputs, features))
        losses = self.compute_losses(outputs)
        return outputs, losses

    def predict_poses(self, inputs, features):
        outputs = {}
        for f_i in self.opt.frame_ids:
            pose_inputs = torch.cat([inputs[f_i], features], 1)
            axisangle, translation = self.models["pose"](pose_inputs).chunk(2, 1)
            outputs[("axisangle", f_i)] = axisangle
            outputs[("translation", f_i)] = translation
        return outputs

    def compute_losses(self, outputs):
        return {"loss": sum(v.abs().mean() for v in outputs.values())}

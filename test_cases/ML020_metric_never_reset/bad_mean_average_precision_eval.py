# Detection mAP keeps every image's boxes; this evaluator never resets it between evaluations.
import torch
from torchmetrics.detection import MeanAveragePrecision


class Evaluator:
    def __init__(self):
        self.map = MeanAveragePrecision(iou_type="bbox")

    @torch.no_grad()
    def evaluate(self, model, loader):
        for images, targets in loader:
            self.map.update(model(images), targets)  # expect: ML020
        return self.map.compute()

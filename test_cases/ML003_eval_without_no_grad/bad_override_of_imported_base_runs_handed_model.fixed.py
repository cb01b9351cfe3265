# `infer_on_batch` overrides a method of an imported data class, whose own code calls it with the
# model it holds: what it is handed is out of this file's sight, not absent, so the finding is shown.
import torch
import torch.nn.functional as F
from deepchecks.vision import SegmentationData


class CocoSegmentationData(SegmentationData):
    @torch.no_grad()
    def infer_on_batch(self, batch, model, device):
        images = [img.unsqueeze(0).float().to(device) / 255 for img in batch[0]]
        predictions = [model(img)["out"].squeeze(0) for img in images]  # expect: ML003
        return [F.softmax(pred, dim=0) for pred in predictions]

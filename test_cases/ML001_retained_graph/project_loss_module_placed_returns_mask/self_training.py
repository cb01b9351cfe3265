# Linted as one project with train.py. The loss module returns its loss, a mask of the confident
# predictions (a comparison: no history) and the pseudo-labels (indices).
import torch.nn as nn
import torch.nn.functional as F


class ConfidenceBasedSelfTrainingLoss(nn.Module):
    def __init__(self, threshold: float):
        super().__init__()
        self.threshold = threshold

    def forward(self, y, y_target):
        confidence, pseudo_labels = F.softmax(y_target.detach(), dim=1).max(dim=1)
        mask = (confidence > self.threshold).float()
        self_training_loss = (F.cross_entropy(y, pseudo_labels, reduction="none") * mask).mean()
        return self_training_loss, mask, pseudo_labels

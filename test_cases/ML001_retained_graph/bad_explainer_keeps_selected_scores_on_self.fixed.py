# An explainer's forward keeps `torch.where(mask, scores, fill)` on `self`: with three arguments
# `where` selects from `scores`, so the kept tensor carries the forward's graph to the next call.
import torch
from torch import nn


class EdgeExplainer(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, edge_index, edge_mask):
        scores = self.model(x, edge_index) * edge_mask
        self.selected = torch.where(edge_mask > 0.5, scores, torch.zeros_like(scores)).detach()  # expect: ML001
        return scores

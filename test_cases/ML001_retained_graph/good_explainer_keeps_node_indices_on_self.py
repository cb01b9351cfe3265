# Look-alike of bad_explainer_keeps_selected_scores_on_self.py: what the explainer keeps on `self`
# are integer indices and booleans (`torch.where(condition)` with one argument is
# `torch.nonzero(condition, as_tuple=True)`; a comparison is a bool tensor), which never require grad.
import torch
from torch import nn


class EdgeExplainer(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, edge_index, node_idx, subset):
        scores = self.model(x, edge_index)
        self.new_node_idx = torch.where(subset == node_idx)[0]
        self.hits = torch.nonzero(scores > 0)
        self.positive = scores > 0
        return scores

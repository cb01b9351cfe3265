# Linted as one project with common.py, records.py and test_reducers.py. The reducers keep only
# what their constructors are handed (unannotated) and counts (also handed to a method that keeps
# them); `WeightedReducer` also keeps a layer it is handed, and `ScaledReducer` makes one: they can
# hold parameters.
import torch

from records import ModuleWithRecords


class MeanReducer(ModuleWithRecords):
    def forward(self, loss_dict, embeddings):
        losses = loss_dict["loss"]["losses"]
        self.losses_size = len(losses)
        return torch.mean(losses)


class ThresholdReducer(ModuleWithRecords):
    def __init__(self, low=None, high=None, **kwargs):
        super().__init__(**kwargs)
        self.low = low
        self.high = high

    def forward(self, loss_dict, embeddings):
        losses = loss_dict["loss"]["losses"]
        kept = (losses > self.low) & (losses < self.high)
        self.set_stats(len(losses[kept]), torch.sum(kept).item())
        return torch.mean(losses[kept])

    def set_stats(self, num_past_filter, num_kept):
        if self.collect_stats:
            self.num_past_filter = num_past_filter
            self.num_kept = num_kept


class WeightedReducer(ModuleWithRecords):
    def __init__(self, weigher, **kwargs):
        super().__init__(**kwargs)
        self.weigher = weigher

    def forward(self, loss_dict, embeddings):
        losses = loss_dict["loss"]["losses"]
        return torch.mean(self.weigher(losses.unsqueeze(-1)))


class ScaledReducer(ModuleWithRecords):
    def __init__(self, size=1):
        super().__init__()
        self.scale = torch.nn.Linear(size, 1)

    def forward(self, loss_dict, embeddings):
        losses = loss_dict["loss"]["losses"]
        return torch.mean(self.scale(losses.unsqueeze(-1)))

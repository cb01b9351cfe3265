# Linted as one project with common.py, reducers.py and test_reducers.py: a module base class
# (pytorch-metric-learning's `ModuleWithRecords`) that keeps a flag, the package's setting unless
# it is handed one.
import torch

import common


class ModuleWithRecords(torch.nn.Module):
    def __init__(self, collect_stats=None):
        super().__init__()
        self.collect_stats = common.COLLECT_STATS if collect_stats is None else collect_stats

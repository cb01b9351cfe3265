# The twin of good_load_of_file_saved_from_cpu.py's FSDP shards: the offload config applies to the
# state dicts FSDP gathers, not to a device tensor saved beside them.
import os

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardedStateDictConfig, StateDictType


class StatsCheckpointer:
    """The offload config applies to the state dicts FSDP gathers, not to a device tensor saved
    beside them: the running statistics come back onto the GPU they were saved from."""

    def __init__(self, model, rank, stats):
        self.model, self.rank, self.stats = model, rank, stats

    def save(self, local_path):
        cfg = ShardedStateDictConfig(offload_to_cpu=True)
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            torch.save(self.stats, os.path.join(local_path, f"stats_rank_{self.rank}.pt"))

    def load_resume_stats(self, local_path):
        self.stats = torch.load(os.path.join(local_path, f"stats_rank_{self.rank}.pt"))  # expect: ML011

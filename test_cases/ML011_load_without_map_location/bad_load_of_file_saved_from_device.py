# The twin of good_load_of_file_saved_from_cpu.py: the same checkpointer, but the converter keeps the
# state it loads on the GPU, the shard is saved without offloading it to the CPU, and the parameter
# state is built on the GPU; every load puts the tensors back on the device they were saved from.
import os

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardedStateDictConfig, StateDictType


def convert(src, dst):
    sd = torch.load(src, map_location="cuda", weights_only=False)
    torch.save({"optimizer_state_dict": sd["optimizer_state_dict"]}, os.path.join(dst, "optimizer_state.pt"))


class Checkpointer:
    def __init__(self, model, optimizer, rank, data_parallel_group):
        self.model, self.optimizer, self.rank = model, optimizer, rank
        self.data_parallel_group = data_parallel_group
        self.numel = sum(p.numel() for p in model.parameters())

    def load_universal_optimizer_state(self, checkpoint_dir):
        optim_state_path = os.path.join(checkpoint_dir, "optimizer_state.pt")
        optim_sd = torch.load(optim_state_path, weights_only=False)  # expect: ML011
        self.optimizer.load_state_dict(optim_sd["optimizer_state_dict"])

    def save_shard(self, path):
        cfg = ShardedStateDictConfig(offload_to_cpu=False)
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            torch.save(self.model.state_dict(), f"{path}/model_rank_{self.rank}.pt")

    def load_shard(self, path):
        cfg = ShardedStateDictConfig(offload_to_cpu=False)
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            model_state_dict = torch.load(f"{path}/model_rank_{self.rank}.pt", weights_only=False)  # expect: ML011
            self.model.load_state_dict(model_state_dict)

    def gather_parameter_state(self):
        return {"param": torch.zeros((self.numel,), dtype=torch.float32, device="cuda")}

    def save_parameter_state(self, filename):
        state_dict = self.gather_parameter_state()
        if self.data_parallel_group.rank() == 0:
            torch.save(state_dict, filename)

    def load_parameter_state(self, filename):
        state_dict = None
        if self.data_parallel_group.rank() == 0:
            state_dict = torch.load(filename)  # expect: ML011
        self.model.load_state_dict(state_dict)


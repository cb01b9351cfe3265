# Checkpoints this file writes with CPU tensors, read back without map_location: the universal
# optimizer state is converted from a state dict loaded to the CPU and every rank reads it by its
# file name; each rank's FSDP shard is saved under an offload-to-CPU config; the data-parallel
# rank 0 loads the parameter state that a helper of the class builds on the CPU. That group is handed
# in by callers out of sight: only the name `.rank()` says the test is of this process's rank, so
# that load is an assumption, shown with `--preview`.
import os

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import ShardedStateDictConfig, StateDictType


def convert(src, dst):
    sd = torch.load(src, map_location="cpu", weights_only=False)
    torch.save({"optimizer_state_dict": sd["optimizer_state_dict"]}, os.path.join(dst, "optimizer_state.pt"))


class Checkpointer:
    def __init__(self, model, optimizer, rank, data_parallel_group):
        self.model, self.optimizer, self.rank = model, optimizer, rank
        self.data_parallel_group = data_parallel_group
        self.numel = sum(p.numel() for p in model.parameters())

    def load_universal_optimizer_state(self, checkpoint_dir):
        optim_state_path = os.path.join(checkpoint_dir, "optimizer_state.pt")
        optim_sd = torch.load(optim_state_path, weights_only=False)
        self.optimizer.load_state_dict(optim_sd["optimizer_state_dict"])

    def save_shard(self, path):
        cfg = ShardedStateDictConfig(offload_to_cpu=True)
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            torch.save(self.model.state_dict(), f"{path}/model_rank_{self.rank}.pt")

    def load_shard(self, path):
        cfg = ShardedStateDictConfig(offload_to_cpu=True)
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            model_state_dict = torch.load(f"{path}/model_rank_{self.rank}.pt", weights_only=False)
            self.model.load_state_dict(model_state_dict)

    def gather_parameter_state(self):
        return {"param": torch.zeros((self.numel,), dtype=torch.float32, device="cpu")}

    def save_parameter_state(self, filename):
        state_dict = self.gather_parameter_state()
        if self.data_parallel_group.rank() == 0:
            torch.save(state_dict, filename)

    def load_parameter_state(self, filename):
        state_dict = None
        if self.data_parallel_group.rank() == 0:
            state_dict = torch.load(filename)  # preview: ML011
        return state_dict


class LoraCheckpointer:
    """verl's shape: the offload is on wherever there is a GPU, the config is built only when it is
    needed, the saved state dict is a filtered copy, and the loader reads a local copy of the file."""

    def __init__(self, model, rank, save_lora_only, should_load):
        self.model, self.rank, self.save_lora_only, self.should_load = model, rank, save_lora_only, should_load

    def save(self, local_path):
        cfg = ShardedStateDictConfig(offload_to_cpu=True if torch.cuda.is_available() else False)
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            model_path = os.path.join(local_path, f"model_rank_{self.rank}.pt")
            model_state_dict = self.model.state_dict()
            if self.save_lora_only:
                model_state_dict = {k: v for k, v in model_state_dict.items() if "lora_" in k}
            torch.save(model_state_dict, model_path)

    def load(self, local_path):
        cfg = ShardedStateDictConfig(offload_to_cpu=True if torch.cuda.is_available() else False) if self.should_load else None
        with FSDP.state_dict_type(self.model, StateDictType.SHARDED_STATE_DICT, cfg):
            remote_model_path = os.path.join(local_path, f"model_rank_{self.rank}.pt")
            local_model_path = os.path.abspath(remote_model_path)
            model_state_dict = torch.load(local_model_path, weights_only=False)
            self.model.load_state_dict(model_state_dict, strict=False)

# The twin of good_fsdp_full_state_offloaded_by_saver.py: the saver turns CPU offload on only for the
# full state dict, but the local state dict, which every rank saves for itself, keeps its tensors on
# its GPU; each rank then loads its own shard back onto the device it was saved from.
import os

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import StateDictType

MODEL_NAME = "pytorch_model_fsdp"


def save_model(plugin, accelerator, model, output_dir):
    if plugin.state_dict_type == StateDictType.FULL_STATE_DICT:
        plugin.state_dict_config.offload_to_cpu = accelerator.num_processes > 1
    ctx = FSDP.state_dict_type(model, plugin.state_dict_type, plugin.state_dict_config)
    with ctx:
        state_dict = model.state_dict()
        if plugin.state_dict_type == StateDictType.LOCAL_STATE_DICT:
            weights_name = f"{MODEL_NAME}_rank{accelerator.process_index}.bin"
            torch.save(state_dict, os.path.join(output_dir, weights_name))


def load_model(plugin, accelerator, model, input_dir):
    ctx = FSDP.state_dict_type(model, plugin.state_dict_type, plugin.state_dict_config)
    with ctx:
        if plugin.state_dict_type == StateDictType.LOCAL_STATE_DICT:
            weights_name = f"{MODEL_NAME}_rank{accelerator.process_index}.bin"
            input_model_file = os.path.join(input_dir, weights_name)
            state_dict = torch.load(input_model_file, weights_only=True, map_location="cpu")  # expect: ML011
            model.load_state_dict(state_dict)
    accelerator.wait_for_everyone()

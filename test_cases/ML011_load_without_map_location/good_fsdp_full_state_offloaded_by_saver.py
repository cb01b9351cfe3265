# An FSDP checkpoint helper: with several processes the saver turns CPU offload on for the full state
# dict, so the file every rank later reads holds CPU tensors; the metadata saved beside the sharded
# weights (step counters, user values) is no checkpoint of weights.
import os

import torch
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.distributed.fsdp import StateDictType

MODEL_NAME = "pytorch_model_fsdp"
METADATA_FILENAME = "meta.pt"


def save_model(plugin, accelerator, model, output_dir, model_index=0):
    if plugin.state_dict_type == StateDictType.FULL_STATE_DICT:
        is_multi_process = accelerator.num_processes > 1
        plugin.state_dict_config.offload_to_cpu = is_multi_process
        plugin.state_dict_config.rank0_only = is_multi_process
    ctx = FSDP.state_dict_type(model, plugin.state_dict_type, plugin.state_dict_config)
    with ctx:
        state_dict = model.state_dict()
        if plugin.state_dict_type == StateDictType.FULL_STATE_DICT:
            weights_name = f"{MODEL_NAME}.bin" if model_index == 0 else f"{MODEL_NAME}_{model_index}.bin"
            output_model_file = os.path.join(output_dir, weights_name)
            if accelerator.process_index == 0:
                torch.save(state_dict, output_model_file)


def load_model(plugin, accelerator, model, input_dir, model_index=0):
    ctx = FSDP.state_dict_type(model, plugin.state_dict_type, plugin.state_dict_config)
    with ctx:
        if plugin.state_dict_type == StateDictType.FULL_STATE_DICT:
            weights_name = f"{MODEL_NAME}.bin" if model_index == 0 else f"{MODEL_NAME}_{model_index}.bin"
            input_model_file = os.path.join(input_dir, weights_name)
            state_dict = torch.load(input_model_file, weights_only=True)
            model.load_state_dict(state_dict)
    accelerator.wait_for_everyone()


def load_checkpoint(path, state):
    metadata = torch.load(os.path.join(path, METADATA_FILENAME), weights_only=True)
    for key in state.keys() & metadata.keys():
        state[key] = metadata[key]
    return state

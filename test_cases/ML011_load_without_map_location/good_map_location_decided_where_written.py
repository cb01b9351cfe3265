# The None branch never runs: the options it tests are built, right above, to offload to the CPU.
import torch
from torch.distributed.checkpoint.state_dict import StateDictOptions, set_model_state_dict


def load_full_checkpoint(module, path):
    options = StateDictOptions(full_state_dict=True, cpu_offload=True)
    map_location = "cpu" if options.cpu_offload else None
    checkpoint = torch.load(str(path), mmap=True, map_location=map_location)
    set_model_state_dict(module, checkpoint["model"], options=options)

# mmcv's `load_checkpoint` with `map_location="cpu"` (by keyword or by position): loaded to the
# CPU, copied into the model's device by `load_state_dict`.
import torch.distributed as dist
from mmengine.runner import load_checkpoint


def build(model, args):
    dist.init_process_group("nccl")
    checkpoint = load_checkpoint(model, args.checkpoint, map_location="cpu")
    load_checkpoint(model, args.pretrained, "cpu")
    return model, checkpoint["meta"]

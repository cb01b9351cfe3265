# mmcv's `load_checkpoint` hands its `map_location` (None by default) to `torch.load`: a checkpoint
# saved from the GPU lands on the GPU, next to the model it is copied into, on every rank.
import torch.distributed as dist
from mmcv.runner import load_checkpoint


def build(model, args):
    dist.init_process_group("nccl")
    checkpoint = load_checkpoint(model, args.checkpoint, map_location="cpu")  # expect: ML011
    return model, checkpoint["meta"]

# The handler moves the inputs to the CPU and converts there: the device memory held by the traceback
# is not what the retry needs (transformers' mxfp4 dequantisation does this).
import torch


def dequantize(blocks, scales):
    return (blocks.float() * scales.float()).to(torch.bfloat16)


def convert(blocks, scales):
    try:
        return dequantize(blocks, scales)
    except torch.OutOfMemoryError:
        blocks = blocks.to("cpu")
        scales = scales.to("cpu")
        return dequantize(blocks, scales)

# A deformable-conv style Function hands its inputs to compiled kernels (another module), so forward never
# uses them as tensors itself; backward returns a gradient for `input` and `weight`, which autograd accepts
# only for tensor inputs: `ctx.input` and `ctx.weight` are tensors kept on ctx, `ctx.stride` is not.
import torch
from torch.autograd import Function

import deform_conv_ext


class DeformConvFunction(Function):
    @staticmethod
    def forward(ctx, input, offset, weight, stride=1, padding=0):
        ctx.stride = stride
        ctx.padding = padding
        ctx.input = input  # expect: ML007
        ctx.weight = weight  # expect: ML007
        ctx.offset_id = id(offset)
        return deform_conv_ext.forward(input, offset, weight, stride, padding)

    @staticmethod
    def backward(ctx, grad_output):
        grad_input, grad_weight = deform_conv_ext.backward(grad_output, ctx.input, ctx.weight, ctx.stride, ctx.padding)
        return grad_input, None, grad_weight, None, None


deform_conv = DeformConvFunction.apply

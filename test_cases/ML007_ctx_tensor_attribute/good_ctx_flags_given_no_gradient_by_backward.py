# The look-alike: the same compiled-kernel Function saves its inputs with `save_for_backward`; what it keeps
# on ctx are the arguments backward returns `None` for (stride, padding, a flag), which need not be tensors.
import torch
from torch.autograd import Function

import deform_conv_ext


class DeformConvFunction(Function):
    @staticmethod
    def forward(ctx, input, offset, weight, stride=1, padding=0, deterministic=False):
        ctx.stride = stride
        ctx.padding = padding
        ctx.deterministic = deterministic
        ctx.save_for_backward(input, offset, weight)
        return deform_conv_ext.forward(input, offset, weight, stride, padding)

    @staticmethod
    def backward(ctx, grad_output):
        input, offset, weight = ctx.saved_tensors
        grad_input, grad_offset, grad_weight = deform_conv_ext.backward(
            grad_output, input, offset, weight, ctx.stride, ctx.padding, ctx.deterministic
        )
        return (grad_input, grad_offset, grad_weight) + (None,) * 3


deform_conv = DeformConvFunction.apply


class ShiftedActivation(Function):
    """Backward returns names bound only to `None` for the offsets (StyleGAN3's filtered lrelu keeps
    `ctx.s_ofs = sx, sy` this way): ints, not tensors."""

    @staticmethod
    def forward(ctx, x, sx, sy):
        ctx.save_for_backward(x)
        ctx.s_ofs = sx, sy
        return deform_conv_ext.shifted_act(x, sx, sy)

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        sx, sy = ctx.s_ofs
        dsx = None
        dsy = None
        dx = deform_conv_ext.shifted_act_backward(dy, x, sx, sy)
        return dx, dsx, dsy

# Swin Transformer's fused window kernel test: the shift is a Python int kept on `self` and negated at
# the call (`-self.shift_size`); arithmetic on an int is no tensor, so nothing on `ctx` is one.
import unittest

import torch


class WindowProcess(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input, B, H, shift_size, window_size):
        ctx.B = B
        ctx.H = H
        ctx.shift_size = shift_size
        ctx.window_size = window_size
        return input.roll(shift_size)

    @staticmethod
    def backward(ctx, grad_in):
        return grad_in.roll(-ctx.shift_size), None, None, None, None


class WindowProcessTest(unittest.TestCase):
    def setUp(self):
        self.B, self.H = 2, 4
        self.shift_size = 2
        self.window_size = 7

    def test_backward(self):
        x = torch.randn(2, 3, requires_grad=True)
        WindowProcess.apply(x, self.B, self.H, -self.shift_size, self.window_size).sum().backward()

# A timing loop runs a module of this file that can hold no parameter (it keeps a threshold,
# annotated as a float) on inputs that need no grad: autograd records nothing, whatever the loop.
import time

import torch
from torch import nn


class FrameReducer(nn.Module):
    def __init__(self, blank_threshold: float = 0.95):
        super().__init__()
        self.blank_threshold = blank_threshold

    def forward(self, frames, ctc_output):
        keep = ctc_output.softmax(-1)[..., 0] < self.blank_threshold
        return frames[keep]


def benchmark(times):
    frames = torch.randn(15, 498, 256)
    ctc_output = torch.randn(15, 498, 500)
    reducer = FrameReducer()
    reducer.eval()
    total = 0.0
    for _ in range(times):
        start = time.time()
        reduced = reducer(frames, ctc_output)
        total += time.time() - start
    print(reduced.shape, total / times)

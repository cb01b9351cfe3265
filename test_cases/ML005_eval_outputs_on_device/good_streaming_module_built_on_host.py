# A streaming test (audiocraft's): the transformer is built here with no device and never moved,
# and the frames come from `torch.randn` on the host, so what the loop collects is on the host.
# (Compare bad_streaming_module_moved_to_device.py.)
import torch
from torch import nn


class StreamingTransformer(nn.Module):
    def __init__(self, dim, layers=1, past_context=None):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.layers = layers
        self.past_context = past_context

    def forward(self, x):
        return self.proj(x)


@torch.no_grad()
def test_streaming(steps):
    tr = StreamingTransformer(16)
    tr.eval()
    x = torch.randn(3, steps, 16)
    outs = []
    for frame_size in [1] * steps:
        frame = x[:, :frame_size]
        x = x[:, frame_size:]
        outs.append(tr(frame))
    out = torch.cat(outs, dim=1)
    assert list(out.shape) == [3, steps, 16]


@torch.no_grad()
def test_streaming_with_context(steps):
    for context in [None, 10]:  # what it is built with: literals, also through the loop and a choice
        tr = StreamingTransformer(16, 1 if context else 2, past_context=context)
        tr.eval()
        x = torch.randn(3, steps, 16)
        outs = []
        for frame_size in [1] * steps:
            frame = x[:, :frame_size]
            x = x[:, frame_size:]
            outs.append(tr(frame))
        assert list(torch.cat(outs, dim=1).shape) == [3, steps, 16]

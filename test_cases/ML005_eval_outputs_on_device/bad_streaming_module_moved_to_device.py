# The same streaming test with the transformer moved to the GPU in place (`tr.to(device)`)
# and the frames after it: every frame's output is on the device, and the loop keeps them all.
# (Compare good_streaming_module_built_on_host.py.)
import torch
from torch import nn

DEVICE = torch.device("cuda")


class StreamingTransformer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)


@torch.no_grad()
def test_streaming(steps):
    tr = StreamingTransformer(16)
    tr.to(DEVICE)
    tr.eval()
    x = torch.randn(3, steps, 16, device=DEVICE)
    outs = []
    for frame_size in [1] * steps:
        frame = x[:, :frame_size]
        x = x[:, frame_size:]
        outs.append(tr(frame))  # expect: ML005
    out = torch.cat(outs, dim=1)
    assert list(out.shape) == [3, steps, 16]

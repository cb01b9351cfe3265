# Linted as one project with time_reducer.py: two modules. `FrameReducer` holds no parameter (it
# keeps a threshold, annotated as a float, as wenet's), so running it records nothing its input
# does not; `FrameScorer` holds a layer whose weights take gradients.
from torch import nn


class FrameReducer(nn.Module):
    def __init__(self, blank_threshold: float = 0.95):
        super().__init__()
        self.blank_threshold = blank_threshold

    def forward(self, frames, ctc_output):
        keep = ctc_output.softmax(-1)[..., 0] < self.blank_threshold
        return frames[keep]


class FrameScorer(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim
        self.proj = nn.Linear(dim, 1)

    def forward(self, frames, ctc_output):
        return self.proj(frames).squeeze(-1)

# Linted as one project with reducers.py: a timing loop runs two modules of another file on frames
# that need no grad. The reducer, with no parameter, records nothing; the scorer's layer records
# its activations on every iteration.
import time

import torch

from reducers import FrameReducer, FrameScorer


def benchmark(times):
    frames = torch.randn(15, 498, 256)
    ctc_output = torch.randn(15, 498, 500)
    reducer = FrameReducer(0.9)
    scorer = FrameScorer(256)
    reducer.eval()
    scorer.eval()
    total = 0.0
    for _ in range(times):
        start = time.time()
        reduced = reducer(frames, ctc_output)
        scores = scorer(frames, ctc_output)  # expect: ML003
        total += time.time() - start
    print(reduced.shape, scores.shape, total / times)

# Linted as one project with base.py, reducers.py and wrappers.py: a test runs wrappers in a loop on
# losses that need no grad, never backwarding. Handed reducers that hold no parameter (through a
# loop over their constructions, or none: its default), the wrapper holds none and records nothing;
# handed a layer, or a reducer that makes one, it records their activations every iteration.
import unittest

import torch

from reducers import MeanReducer, ScaledReducer, SumReducer
from wrappers import PerAnchorReducer

TEST_DEVICE = torch.device("cuda")
TEST_DTYPES = [torch.float16]


class TestPerAnchorReducer(unittest.TestCase):
    def test_per_anchor_reducer(self):
        for inner_reducer in [MeanReducer(), SumReducer()]:
            reducer = PerAnchorReducer(inner_reducer)
            for dtype in TEST_DTYPES:
                for size, scale in [(10, 1.0), (20, 2.0)]:
                    losses = torch.randn(size, 4).type(dtype).to(TEST_DEVICE) * scale
                    counts = torch.randint(1, 4, (size,)).to(TEST_DEVICE)
                    output = reducer(losses, counts)
                    self.assertTrue(output.numel() == 1)

    def test_reducers_with_layers(self):
        for inner_reducer in [ScaledReducer(), torch.nn.Linear(1, 1)]:
            reducer = PerAnchorReducer(inner_reducer)
            for dtype in TEST_DTYPES:
                for size, scale in [(10, 1.0), (20, 2.0)]:
                    losses = torch.randn(size, 4).type(dtype).to(TEST_DEVICE) * scale
                    counts = torch.randint(1, 4, (size,)).to(TEST_DEVICE)
                    output = reducer(losses, counts)  # expect: ML003
                    self.assertTrue(output.numel() == 1)

    def test_default_reducer(self):
        reducer = PerAnchorReducer()
        for dtype in TEST_DTYPES:
            for size, scale in [(10, 1.0), (20, 2.0)]:
                losses = torch.randn(size, 4).type(dtype).to(TEST_DEVICE) * scale
                counts = torch.randint(1, 4, (size,)).to(TEST_DEVICE)
                output = reducer(losses, counts)
                self.assertTrue(output.numel() == 1)

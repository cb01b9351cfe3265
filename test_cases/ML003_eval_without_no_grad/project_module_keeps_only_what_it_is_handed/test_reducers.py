# Linted as one project with common.py, records.py and reducers.py: a test runs reducers in a loop
# on losses that need no grad, never backwarding. The two built from literals (also through a
# loop over literals) hold no parameter,
# so they record nothing; the one handed a layer, and the one that makes one, record its
# activations every iteration.
import unittest

import torch

from reducers import MeanReducer, ScaledReducer, ThresholdReducer, WeightedReducer

TEST_DEVICE = torch.device("cuda")
TEST_DTYPES = [torch.float16]


class TestReducers(unittest.TestCase):
    def test_reducers(self):
        reducer = MeanReducer()
        weighted_reducer = WeightedReducer(torch.nn.Linear(1, 1))
        scaled_reducer = ScaledReducer()
        batch_size = 100
        embedding_size = 64
        for dtype in TEST_DTYPES:
            embeddings = torch.randn(batch_size, embedding_size).type(dtype).to(TEST_DEVICE)
            losses = torch.randn(batch_size).type(dtype).to(TEST_DEVICE)
            for indices, reduction_type in [(torch.arange(batch_size), "element")]:
                loss_dict = {"loss": {"losses": losses, "indices": indices, "reduction_type": reduction_type}}
                output = reducer(loss_dict, embeddings)
                correct_output = torch.mean(losses)
                self.assertTrue(output == correct_output)
                for low, high in [(0.1, 2), (None, 1)]:
                    threshold_reducer = ThresholdReducer(low, high)
                    output = threshold_reducer(loss_dict, embeddings)
                output = weighted_reducer(loss_dict, embeddings)  # expect: ML003
                output = scaled_reducer(loss_dict, embeddings)  # expect: ML003

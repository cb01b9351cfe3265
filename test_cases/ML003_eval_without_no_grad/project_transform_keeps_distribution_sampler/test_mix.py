# Linted as one project with mix.py: a test runs transforms in a loop on tensors without history,
# never backwarding. The one that keeps only a sampler and numbers records nothing; the one that
# makes a layer records its activations every iteration.
import unittest

import torch

from mix import CutMix, ScaledCutMix


class TestMix(unittest.TestCase):
    def test_cutmix(self):
        alpha = 1.0
        num_classes = 3
        transform_cutmix = CutMix(alpha=alpha, num_classes=num_classes)
        videos = torch.rand(2, 3, 4, 8, 8)
        labels = torch.arange(0, 2) % num_classes
        mixed_videos, mixed_labels = transform_cutmix(videos, labels)
        self.assertTrue(mixed_labels.sum().item() == labels.sum().item())
        test_times = 20
        for _ in range(test_times):
            mixed_videos, mixed_labels = transform_cutmix(videos, labels)
            if 0 in mixed_videos[0, :]:
                break

    def test_scaled_cutmix(self):
        alpha = 1.0
        size = 8
        transform_cutmix = ScaledCutMix(alpha=alpha, size=size)
        videos = torch.rand(2, 3, 4, 8, size)
        labels = torch.arange(0, 2) % size
        mixed_videos, mixed_labels = transform_cutmix(videos, labels)
        self.assertTrue(mixed_labels.sum().item() == labels.sum().item())
        test_times = 20
        for _ in range(test_times):
            mixed_videos, mixed_labels = transform_cutmix(videos, labels)  # expect: ML003
            if 0 in mixed_videos[0, :]:
                break

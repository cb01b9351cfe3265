"""`memlint estimate` on what speech and label-rewriting scripts do on small tensors with real
values: a loss over the valid positions of padded sequences (`masked_select` by a mask made from
the lengths), labels rewritten one element at a time on the GPU, and a data set's per-sample
transforms and collation on the host."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from torch._subclasses.fake_tensor import DynamicOutputShapeException  # noqa: E402

from memlint.estimate.tracker import GPU  # noqa: E402
from test_estimate_programs import _run_fake  # noqa: E402


def test_a_loss_over_the_valid_positions_of_padded_sequences_gets_their_count(tmp_path, capsys):
    # FastSpeech2's loss: predictions of padded utterances selected by a mask made from their lengths.
    _run_fake(tmp_path, """
        import torch
        lengths = torch.tensor([7, 5, 2]).cuda()
        ids = torch.arange(0, 7).unsqueeze(0).expand(3, -1).cuda()
        valid = ~(ids >= lengths.unsqueeze(1).expand(-1, 7))
        mel = torch.nn.Linear(8, 80).cuda()(torch.randn(3, 7, 8, device="cuda"))
        picked = mel.masked_select(valid.unsqueeze(-1))          # broadcast over the 80 channels
        pitch = torch.randn(3, 7, device="cuda", requires_grad=True).masked_select(valid)
        (picked.mean() + pitch.mean()).backward()
        print(tuple(picked.shape), tuple(pitch.shape), picked.is_cuda)
    """)
    assert capsys.readouterr().out.split() == ["(1120,)", "(14,)", "True"]


def test_a_mask_with_no_values_is_refused_not_guessed(tmp_path):
    with pytest.raises(DynamicOutputShapeException):
        _run_fake(tmp_path, """
            import torch
            out = torch.nn.Linear(16, 7).cuda()(torch.randn(100, 16, device="cuda"))
            out.masked_select(out > 0)
        """)


def test_labels_rewritten_one_by_one_on_the_gpu_keep_their_values_and_allocate_nothing(tmp_path, capsys):
    # Forward-forward's negative labels: a copy of the labels, each element replaced by another class.
    tracker = _run_fake(tmp_path, """
        import torch
        y = torch.arange(2000).remainder(10).cuda()
        y_neg = y.clone()
        for idx, y_samp in enumerate(y):
            y_neg[idx] = (y_samp.item() + 1) % 10
        print(int(y_neg[:4].sum()), int((y_neg != y).sum()), y_neg.is_cuda)
    """)
    assert capsys.readouterr().out.split() == ["10", "2000", "True"]
    assert not tracker.record.scalar_uses  # every number read was real
    # the labels and their copy, then the print's comparisons and sums (2,560 bytes): nothing per write
    assert tracker._peak_mem[GPU] == 2 * 16384 + 2560


def test_a_data_sets_per_sample_transforms_and_collation_run_on_the_host_at_host_speed(tmp_path, capsys):
    # torchvision's Normalize is a module and makes its constants with `device=`; the DataLoader stacks
    # 5,000 samples (more than a host op computes on real data one at a time) into one batch.
    tracker = _run_fake(tmp_path, """
        import numpy as np
        import torch

        class Normalize(torch.nn.Module):
            def forward(self, x):
                mean = torch.as_tensor([0.1307], dtype=x.dtype, device=x.device)
                return (x - mean.view(-1, 1, 1)) / 0.3081

        rng = np.random.default_rng(0)
        norm = Normalize()
        samples = [norm(torch.from_numpy(rng.random((1, 28, 28), dtype=np.float32))).flatten() for _ in range(5000)]
        batch = torch.utils.data.default_collate(samples)
        x = batch.cuda()
        print(type(samples[0]) is torch.Tensor, type(batch) is torch.Tensor, tuple(x.shape),
              abs(float(batch[-1].mean()) - float(samples[-1].mean())) < 1e-6)
    """)
    assert capsys.readouterr().out.split() == ["True", "True", "(5000,", "784)", "True"]
    # real host tensors (not fakes) all the way to the copy: only the batch on the GPU is counted
    assert tracker._peak_mem[GPU] == 5000 * 784 * 4

"""`memlint verify --compare-fix -- COMMAND` on real frameworks, on CPU (issue 18):
Lightning's bf16-mixed cast cache (ML002) measured per decode step inside
`training_step`, and transformers' evaluation loop (ML016) per evaluation batch.
Tiny models built from configs: nothing is downloaded."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from memlint.cli import main

LIGHTNING_DECODE = """\
    import torch
    from lightning.pytorch import LightningModule, Trainer


    class Decoder(LightningModule):
        def __init__(self):
            super().__init__()
            self.layers = torch.nn.Sequential(*[torch.nn.Linear(256, 256) for _ in range(4)])

        def training_step(self, batch, batch_idx):
            (x,) = batch
            h = x
            total = 0
            for _ in range(20):
                h = self.layers(h).tanh()
                total = total + h.float().pow(2).mean()
            return total

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=1e-3)


    if __name__ == "__main__":
        loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(12, 256)), batch_size=4)
        trainer = Trainer(accelerator="cpu", devices=1, precision="bf16-mixed", max_steps=3, logger=False,
                          enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
        trainer.fit(Decoder(), loader)
"""


def verify_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, body: str) -> tuple[list[dict], str]:
    (tmp_path / name).write_text(textwrap.dedent(body))
    monkeypatch.chdir(tmp_path)
    args = ["verify", "--device", "cpu", "-n", "10", "--timeout", "120", "--compare-fix", "--format", "json",
            "--", sys.executable, name]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return json.loads(result.stdout), result.stdout


def test_lightning_bf16_decode_loop_grows_per_decode_step_until_the_fix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lightning 2.6 runs `training_step` under `torch.autocast("cpu", torch.bfloat16,
    cache_enabled=False)` on CPU as on CUDA: each decode step casts the 4 Linear layers again
    and keeps the casts for backward, 4 x 256 x 256 x 2 bytes + biases = 0.508 MiB per step.
    memlint's fix (the cache back on around the loop) casts them once."""
    [item], _ = verify_command(tmp_path, monkeypatch, "train.py", LIGHTNING_DECODE)
    assert item["code"] == "ML002" and item["site_kind"] == "loop", item
    assert item["verdict"] == "confirmed" and item["slope_mib_per_iter"] == pytest.approx(0.508, rel=0.05), item
    after = item["after_fix"]
    assert item["fix_result"] == "fixed", item
    assert after["verdict"] == "not_confirmed" and after["slope_mib_per_iter"] < 0.05, after
    assert after["peak_mib"] < item["peak_mib"] / 4, (item["peak_mib"], after["peak_mib"])

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


def verify_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, body: str,
                   *options: str) -> tuple[list[dict], str]:
    (tmp_path / name).write_text(textwrap.dedent(body))
    monkeypatch.chdir(tmp_path)
    args = ["verify", "--device", "cpu", "-n", "10", "--timeout", "120", "--compare-fix", "--format", "json",
            *options, "--", sys.executable, name]
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


HF_EVALUATE = """\
    import tempfile

    import numpy as np
    import torch
    from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments


    class Tokens(torch.utils.data.Dataset):
        def __len__(self):
            return 4 * 32

        def __getitem__(self, i):
            ids = torch.randint(0, 4096, (32,))
            return {"input_ids": ids, "labels": ids}


    def compute_metrics(eval_pred):
        return {"mean_logit": float(np.mean(eval_pred.predictions))}


    if __name__ == "__main__":
        model = GPT2LMHeadModel(GPT2Config(n_layer=1, n_head=2, n_embd=64, vocab_size=4096, n_positions=32))
        args = TrainingArguments(output_dir=tempfile.mkdtemp(), per_device_eval_batch_size=4, report_to=[],
                                 disable_tqdm=True, use_cpu=True)
        trainer = Trainer(model=model, args=args, eval_dataset=Tokens(), compute_metrics=compute_metrics)
        print(trainer.evaluate())
"""


def test_hf_evaluation_grows_per_batch_until_eval_accumulation_steps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """transformers' `evaluation_loop` concatenates each batch's logits (4 x 32 x 4096 float32
    = 2 MiB) onto the device; verify probes `Trainer.prediction_step`, called once per batch
    inside that loop. After memlint's fix (`eval_accumulation_steps=8`) the logits leave every
    8 batches: a saw-tooth, no slope. On CPU the first chunk's numpy array shares the tensor's
    storage, so the first drop comes after 16 batches (on a GPU `.cpu()` copies: after 8)."""
    [item], text = verify_command(tmp_path, monkeypatch, "evaluate.py", HF_EVALUATE, "-n", "30")
    assert item["code"] == "ML016" and item["site_kind"] == "call", item
    assert item["loop"]["header"].startswith("transformers.trainer.Trainer.prediction_step"), item["loop"]
    assert item["verdict"] == "confirmed" and item["slope_mib_per_iter"] == pytest.approx(2.0, rel=0.02), item
    after = item["after_fix"]
    assert item["fix_result"] == "fixed" and after["verdict"] == "not_confirmed", after
    assert max(after["samples"]) <= (16 * 2 + 1) * 2**20, after["samples"]  # bounded: 16 batches on CPU, then 8
    assert after["peak_mib"] < item["peak_mib"] / 2, (item["peak_mib"], after["peak_mib"])


def test_a_library_function_is_probed_per_call_once_its_module_is_imported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The generic part: the bootstrap wraps `module.Class.method` when the command imports the
    module, and each call runs the per-call hook first; the module's other names are untouched."""
    import builtins
    import importlib

    from memlint.verify import bootstrap, child

    (tmp_path / "fakelib.py").write_text("class Loop:\n    def step(self, x):\n        return x + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    calls: list[int] = []
    events: list[dict] = []
    monkeypatch.setitem(builtins.__dict__, child.CALL_HOOK, calls.append)
    finder = bootstrap._LibraryFinder([{"module": "fakelib", "qualname": "Loop.step", "probe": 7}],
                                      type("E", (), {"emit": staticmethod(events.append)})())
    monkeypatch.setattr("sys.meta_path", [finder, *__import__("sys").meta_path])
    monkeypatch.delitem(__import__("sys").modules, "fakelib", raising=False)
    fakelib = importlib.import_module("fakelib")
    assert [fakelib.Loop().step(i) for i in range(3)] == [1, 2, 3]
    assert calls == [7, 7, 7]
    assert events == [{"ev": "imp", "file": str((tmp_path / "fakelib.py").resolve()), "probes": [7]}]

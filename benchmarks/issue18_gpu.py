"""Peak device memory of issue 18's patterns, before and after memlint's fix, on one GPU.

    python benchmarks/issue18_gpu.py OUTDIR

Each case runs its step a few times as written ("before") and as memlint's
fix rewrites it ("after"), and records the peak allocated memory per step
(`torch.cuda.max_memory_allocated`, reset before each step) in
OUTDIR/issue18_gpu.json:

* ml002_lightning: a 50-step GRU decode in a LightningModule's
  `training_step` under `Trainer(precision="bf16-mixed")`, and the same step
  with the loop wrapped in `torch.autocast(..., cache_enabled=True)`. Needs
  Lightning installed (skipped with a note otherwise); its version is recorded.
* ml002_cast_cache: the same decode under a plain
  `torch.autocast(cache_enabled=False)` against the cache on (no Lightning).
* ml018_use_cache: a small Llama (random weights, no download) trained with
  `outputs = model(**batch)` kept across steps, against `use_cache=False`.
  Needs transformers.
* ml016_hf_eval: `Trainer.evaluate()` of a small GPT-2 (random weights, no
  download) with `compute_metrics` and no `eval_accumulation_steps`, against
  memlint's fix `eval_accumulation_steps=8`: device memory after each
  evaluation batch (`on_prediction_step`), its growth per batch and the peak
  of the evaluation. Needs transformers (and accelerate).
* verify_ml016_hf_eval: the same kind of evaluation as a script, run through
  `memlint verify --compare-fix -n 30 -- python evaluate.py` (the CUDA
  tracker, the probe on `Trainer.prediction_step`): memlint's verdict, MiB
  per evaluation batch and peak, before and after its fix.
* ml019_frozen: a frozen reference model's forward with grad in a training
  step, against `torch.no_grad()` around it.
* ml017_oom_retry: an out-of-memory error forced by a memory cap, retried
  inside the `except` block against after it: the memory held during the retry.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import tempfile
from importlib import metadata

import torch

MIB = 2**20
DEVICE = "cuda"


def peak_mib(step, repeats: int = 3) -> float:
    peaks = []
    for _ in range(repeats):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        step()
        torch.cuda.synchronize()
        peaks.append(torch.cuda.max_memory_allocated() / MIB)
    return round(max(peaks[1:] or peaks), 1)


def version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


class Decoder(torch.nn.Module):
    def __init__(self, hidden: int = 2048, vocab: int = 8192) -> None:
        super().__init__()
        self.cell = torch.nn.GRUCell(hidden, hidden)
        self.head = torch.nn.Linear(hidden, vocab)

    def decode(self, h: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        loss = h.new_zeros(())
        for t in range(targets.shape[1]):
            h = self.cell(h, h)
            loss = loss + torch.nn.functional.cross_entropy(self.head(h).float(), targets[:, t])
        return loss / targets.shape[1]


def cast_cache_case() -> dict:
    model = Decoder().to(DEVICE)
    h = torch.randn(16, 2048, device=DEVICE)
    targets = torch.randint(0, 8192, (16, 50), device=DEVICE)

    def step(cache: bool):
        def run():
            with torch.autocast(DEVICE, dtype=torch.bfloat16, cache_enabled=cache):
                loss = model.decode(h, targets)
            loss.backward()
            model.zero_grad(set_to_none=True)
        return run

    return {"before_mib": peak_mib(step(False)), "after_mib": peak_mib(step(True))}


def lightning_case() -> dict:
    try:
        import lightning as L
    except ImportError:
        return {"skipped": "lightning is not installed"}
    results = {"lightning": version("lightning")}
    h = torch.randn(16, 2048)
    targets = torch.randint(0, 8192, (16, 50))
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(h, targets), batch_size=16)

    class Lit(L.LightningModule):
        def __init__(self, workaround: bool) -> None:
            super().__init__()
            self.decoder = Decoder()
            self.workaround = workaround
            self.peaks: list[float] = []

        def on_train_batch_start(self, batch, batch_idx):
            torch.cuda.synchronize()
            torch.cuda.reset_peak_memory_stats()

        def training_step(self, batch, batch_idx):
            hb, tb = batch
            if self.workaround:
                with torch.autocast(self.device.type, dtype=torch.bfloat16, cache_enabled=True):
                    return self.decoder.decode(hb, tb)
            return self.decoder.decode(hb, tb)

        def on_train_batch_end(self, outputs, batch, batch_idx):
            torch.cuda.synchronize()
            self.peaks.append(torch.cuda.max_memory_allocated() / MIB)

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.01)

    for name, workaround in (("before_mib", False), ("after_mib", True)):
        module = Lit(workaround)
        trainer = L.Trainer(
            accelerator="gpu", devices=1, precision="bf16-mixed", max_steps=4, logger=False,
            enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
        )
        trainer.fit(module, loader)
        results[name] = round(max(module.peaks[1:] or module.peaks), 1)
        del module, trainer
        torch.cuda.empty_cache()
    return results


def use_cache_case() -> dict:
    try:
        from transformers import LlamaConfig, LlamaForCausalLM
    except ImportError:
        return {"skipped": "transformers is not installed"}
    config = LlamaConfig(
        hidden_size=1024, intermediate_size=2816, num_hidden_layers=16, num_attention_heads=16,
        num_key_value_heads=16, vocab_size=8192, max_position_embeddings=4096,
    )
    model = LlamaForCausalLM(config).to(DEVICE, torch.bfloat16)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
    batch = {"input_ids": torch.randint(0, 8192, (4, 2048), device=DEVICE)}
    batch["labels"] = batch["input_ids"]
    results = {"transformers": version("transformers")}
    for name, extra in (("before_mib", {}), ("after_mib", {"use_cache": False})):
        kept = {}

        def step():
            outputs = model(**batch, **extra)
            outputs.loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
            kept["outputs"] = outputs  # bound until the next step's forward has returned, as in a loop

        results[name] = peak_mib(step, repeats=4)
        kept.clear()
        torch.cuda.empty_cache()
    return results


def hf_eval_case() -> dict:
    try:
        from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainerCallback, TrainingArguments
    except ImportError:
        return {"skipped": "transformers is not installed"}
    batches, batch_size, seq, vocab = 48, 8, 128, 32000  # float32 logits: 125 MiB per batch

    class Tokens(torch.utils.data.Dataset):
        def __len__(self):
            return batches * batch_size

        def __getitem__(self, i):
            ids = torch.randint(0, vocab, (seq,))
            return {"input_ids": ids, "labels": ids}

    class PerBatch(TrainerCallback):
        def __init__(self) -> None:
            self.allocated: list[float] = []

        def on_prediction_step(self, args, state, control, **kwargs):
            self.allocated.append(torch.cuda.memory_allocated() / MIB)

    def compute_metrics(eval_pred):
        return {"n": float(len(eval_pred.predictions))}

    model = GPT2LMHeadModel(GPT2Config(n_layer=2, n_head=4, n_embd=256, vocab_size=vocab, n_positions=seq))
    results = {"transformers": version("transformers"), "batches": batches,
               "logits_mib_per_batch": round(batch_size * seq * vocab * 4 / MIB, 2)}
    for name, extra in (("before", {}), ("after", {"eval_accumulation_steps": 8})):
        args = TrainingArguments(output_dir=tempfile.mkdtemp(), per_device_eval_batch_size=batch_size,
                                 report_to=[], disable_tqdm=True, **extra)
        probe = PerBatch()
        trainer = Trainer(model=model, args=args, eval_dataset=Tokens(), compute_metrics=compute_metrics,
                          callbacks=[probe])
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated() / MIB
        torch.cuda.reset_peak_memory_stats()
        trainer.evaluate()
        torch.cuda.synchronize()
        grown = [a - base for a in probe.allocated]
        results[name] = {
            "growth_mib_per_batch": round((grown[-1] - grown[1]) / (len(grown) - 2), 2),
            "max_growth_mib": round(max(grown), 1),
            "peak_mib": round(torch.cuda.max_memory_allocated() / MIB - base, 1),
            "allocated_mib_per_batch": [round(g, 1) for g in grown],
        }
        del trainer
        torch.cuda.empty_cache()  # noqa: ML004 - between variants, so each starts from the same pool
    results["before_mib"], results["after_mib"] = results["before"]["peak_mib"], results["after"]["peak_mib"]
    results["note"] = "peaks of the evaluation above the model's memory; growth from batch 1 to the last"
    return results


HF_EVALUATE = """\
import tempfile

import torch
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments


class Tokens(torch.utils.data.Dataset):
    def __len__(self):
        return 8 * 40

    def __getitem__(self, i):
        ids = torch.randint(0, 32000, (128,))
        return {"input_ids": ids, "labels": ids}


def compute_metrics(eval_pred):
    return {"n": float(len(eval_pred.predictions))}


if __name__ == "__main__":
    model = GPT2LMHeadModel(GPT2Config(n_layer=2, n_head=4, n_embd=256, vocab_size=32000, n_positions=128))
    args = TrainingArguments(output_dir=tempfile.mkdtemp(), per_device_eval_batch_size=8, report_to=[],
                             disable_tqdm=True)
    trainer = Trainer(model=model, args=args, eval_dataset=Tokens(), compute_metrics=compute_metrics)
    print(trainer.evaluate())
"""


def verify_hf_eval_case() -> dict:
    if version("transformers") is None:
        return {"skipped": "transformers is not installed"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)}
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "evaluate.py"), "w") as handle:
        handle.write(HF_EVALUATE)
    run = subprocess.run([sys.executable, "-m", "memlint", "verify", "--compare-fix", "--format", "json", "-n", "30",
                          "--timeout", "400", "--", sys.executable, "evaluate.py"],
                         cwd=work, env=env, capture_output=True, text=True, timeout=900)
    try:
        [item] = json.loads(run.stdout)
    except ValueError:
        return {"error": f"exit {run.returncode}: {(run.stdout + run.stderr)[-800:]}"}
    after = item.get("after_fix") or {}
    keep = ("verdict", "slope_mib_per_iter", "growth_mib", "peak_mib", "note", "error")
    return {"code": item["code"], "site": item["loop"]["header"] if item.get("loop") else None,
            "logits_mib_per_batch": round(8 * 128 * 32000 * 4 / MIB, 2),
            "before": {k: item.get(k) for k in keep}, "after": {k: after.get(k) for k in keep},
            "fix_result": item.get("fix_result"), "device": item.get("device"),
            "before_mib": item.get("peak_mib"), "after_mib": after.get("peak_mib")}


def frozen_case() -> dict:
    # Fresh models for each variant: a backward through the reference's output fills a
    # `.grad` on each of its parameters, which would otherwise still be there in the next run.
    def step(no_grad: bool):
        policy = torch.nn.Sequential(*[torch.nn.Linear(4096, 4096) for _ in range(8)]).to(DEVICE)
        reference = copy.deepcopy(policy).eval()
        optimizer = torch.optim.SGD(policy.parameters(), lr=1e-4)
        x = torch.randn(512, 4096, device=DEVICE)

        def run():
            logits = policy(x)
            if no_grad:
                with torch.no_grad():
                    ref_logits = reference(x)
            else:
                ref_logits = reference(x)
            loss = logits.pow(2).mean() + (logits - ref_logits).pow(2).mean()
            loss.backward()
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
        return run

    before = peak_mib(step(False))
    torch.cuda.empty_cache()  # noqa: ML004 - between variants, so each starts from the same pool
    return {"before_mib": before, "after_mib": peak_mib(step(True))}


def oom_retry_case() -> dict:
    layer = torch.nn.Linear(8192, 8192).to(DEVICE)
    free, _ = torch.cuda.mem_get_info()
    big = 1 + int(free / (8192 * 4 * 3))  # rows whose activations do not fit

    def attempt(rows: int) -> None:
        h = layer(torch.randn(rows, 8192, device=DEVICE))
        layer(torch.relu(h)).sum().backward()

    results = {}
    for name, inside in (("before_mib", True), ("after_mib", False)):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        held = {}
        out_of_memory = False
        try:
            attempt(big)
        except torch.cuda.OutOfMemoryError:
            if inside:
                held["at_retry"] = torch.cuda.memory_allocated() / MIB
                attempt(4096)
            else:
                out_of_memory = True
        if out_of_memory:
            held["at_retry"] = torch.cuda.memory_allocated() / MIB
            attempt(4096)
        results[name] = round(held.get("at_retry", -1.0), 1)
        layer.zero_grad(set_to_none=True)
        torch.cuda.empty_cache()  # noqa: ML004 - between cases, so each starts from the same pool
    results["note"] = "memory allocated when the retry starts"
    return results


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OUT", ".")
    os.makedirs(out, exist_ok=True)
    report = {"device": torch.cuda.get_device_name(), "torch": torch.__version__}
    for name, case in (
        ("ml002_cast_cache", cast_cache_case),
        ("ml002_lightning", lightning_case),
        ("ml018_use_cache", use_cache_case),
        ("ml016_hf_eval", hf_eval_case),
        ("verify_ml016_hf_eval", verify_hf_eval_case),
        ("ml019_frozen", frozen_case),
        ("ml017_oom_retry", oom_retry_case),
    ):
        try:
            report[name] = case()
        except Exception as exc:  # noqa: BLE001 - one failed case must not lose the others
            report[name] = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        torch.cuda.empty_cache()
        print(name, report[name], flush=True)
    with open(os.path.join(out, "issue18_gpu.json"), "w") as handle:
        json.dump(report, handle, indent=2)


if __name__ == "__main__":
    main()

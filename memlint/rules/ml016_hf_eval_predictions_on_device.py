from __future__ import annotations

import libcst as cst

from memlint.analysis.regions import hf_trainer
from memlint.analysis.syntax.expressions import bool_constant, call_arg, code
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule
from memlint.rules.edits import append_keyword

# Batches of predictions kept on the device before they move to the CPU, in the fix.
ACCUMULATION_STEPS = 8


class HfEvalPredictionsOnDevice(Rule):
    code = "ML016"
    name = "hf-eval-predictions-on-device"
    severity = Severity.WARNING
    summary = "A Hugging Face `Trainer` with `compute_metrics` keeps every evaluation prediction on the device"
    fix_applicability = Applicability.UNSAFE
    needles = (("compute_metrics",), ("Trainer",))
    what = """
Checks for a Hugging Face `Trainer` (or `Seq2SeqTrainer`, trl's trainers, a
subclass of this file) given `compute_metrics` whose `TrainingArguments`
(written in the same file) set neither `eval_accumulation_steps` nor
`prediction_loss_only=True`. A Trainer given `preprocess_logits_for_metrics`
(which shrinks what is kept, e.g. to an argmax), or arguments with
`predict_with_generate=True` (token ids, not logits), or arguments built
elsewhere or from `**config`, is not reported.
"""
    why = """
With `compute_metrics`, the evaluation loop keeps every batch's logits and
labels, concatenated on the device, and moves them to the CPU only every
`eval_accumulation_steps` batches; when that is unset, only at the end of the
evaluation ("the whole predictions are accumulated on the device before being
moved to the CPU", transformers' documentation). The logits of the whole
evaluation set are then on the device at once: for a causal LM,
samples × sequence length × vocabulary floats (1,000 samples of 512 tokens
with a 32,000-token vocabulary: 61 GiB in fp32), so the first evaluation runs
out of memory whatever the batch size (transformers issue 7232).

The fix passes `eval_accumulation_steps=8`: `compute_metrics` gets the same
arrays, but the fix is unsafe because the whole set must then fit in host
memory, and every eighth batch waits for a device-to-host copy.
"""
    example = """
args = TrainingArguments("out", per_device_eval_batch_size=8, eval_strategy="epoch")
trainer = Trainer(model=model, args=args, eval_dataset=val, compute_metrics=compute_metrics)
"""
    use_instead = """
args = TrainingArguments("out", per_device_eval_batch_size=8, eval_strategy="epoch", eval_accumulation_steps=8)
trainer = Trainer(model=model, args=args, eval_dataset=val, compute_metrics=compute_metrics)
"""

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        if not hf_trainer.is_trainer_call(model, node) or hf_trainer.splats(node):
            return
        if hf_trainer.given(node, "compute_metrics") is None or hf_trainer.given(node, "preprocess_logits_for_metrics"):
            return
        args = hf_trainer.arguments_of(model, node)
        if args is None or hf_trainer.splats(args):
            return
        if hf_trainer.given(args, "eval_accumulation_steps") is not None or self._set_later(node):
            return
        for keyword in ("prediction_loss_only", "predict_with_generate"):
            value = hf_trainer.given(args, keyword)
            if value is not None and bool_constant(value) is not False:
                return  # True, or only known at run time
        line = model.range_of(node).start.line
        message = (
            f"`{code(args.func)}(...)` sets no `eval_accumulation_steps` for the `{code(node.func)}` of line {line} "
            "with `compute_metrics`, so evaluation keeps every batch's logits on the device"
        )
        hint = (
            "set `eval_accumulation_steps=` (move predictions to the CPU every N batches), or pass "
            "`preprocess_logits_for_metrics=` to keep only what the metrics need; otherwise the first evaluation "
            "needs samples × sequence × vocabulary of device memory whatever the batch size (transformers issue 7232)"
        )
        fix = FixSpec(
            Applicability.UNSAFE,
            f"Move evaluation predictions to the CPU every {ACCUMULATION_STEPS} batches",
            ((args, append_keyword(args, "eval_accumulation_steps", cst.Integer(str(ACCUMULATION_STEPS)))),),
        )
        self.report(args, message, hint, fix=fix)

    def _set_later(self, trainer: cst.Call) -> bool:
        """`args.eval_accumulation_steps = 4` (or `prediction_loss_only`, ...) set on the object after it is built."""
        arg = call_arg(trainer, 1, "args")
        name = code(arg.value) if arg is not None else None
        return any(
            isinstance(t.target, cst.Attribute)
            and code(t.target.value) == name
            and t.target.attr.value in ("eval_accumulation_steps", "prediction_loss_only", "predict_with_generate")
            for assign in self.model.tree.by_type.get(cst.Assign, ())
            for t in assign.targets
        )

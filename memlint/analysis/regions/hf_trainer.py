"""The Hugging Face Trainer as written in a file: `Trainer(...)` calls and the arguments they get.

What the Trainer does with them, from transformers' `Trainer.evaluation_loop`:
with `compute_metrics` (so `prediction_loss_only` is off) every evaluation
batch's logits and labels go into an `EvalLoopContainer`, concatenated on the
device (`nested_concat`), and move to the CPU only every
`eval_accumulation_steps` batches, or at the end of the loop when that is
unset: the logits of the whole evaluation set are on the device at once
(transformers issue 7232). `preprocess_logits_for_metrics` runs on each
batch's logits before they are kept (an argmax keeps one id per token), and
`predict_with_generate` keeps generated token ids instead of logits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import call_arg, keyword_arg

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

_TRAINER_PACKAGES = ("transformers.", "trl.")


def is_trainer_call(context: "FileContext", call: cst.Call) -> bool:
    """`Trainer(...)`, `Seq2SeqTrainer(...)`, trl's `SFTTrainer(...)`, or a subclass of this file."""
    name = context.imports.resolve(call.func) or ""
    if name.startswith(_TRAINER_PACKAGES) and name.endswith("Trainer"):
        return True
    if isinstance(call.func, cst.Name):
        for cls in context.tree.by_type.get(cst.ClassDef, ()):
            if cls.name.value == call.func.value and context.frameworks.framework_of(cls) == "hf-trainer":
                return True
    return False


def is_arguments_call(context: "FileContext", call: cst.Call) -> bool:
    """`TrainingArguments(...)`, `Seq2SeqTrainingArguments(...)`, trl's `SFTConfig(...)`/`GRPOConfig(...)`."""
    name = context.imports.resolve(call.func) or ""
    last = name.rsplit(".", 1)[-1]
    return (name.startswith("transformers.") and last.endswith("TrainingArguments")) or (
        name.startswith("trl.") and last.endswith("Config")
    )


def arguments_of(context: "FileContext", trainer: cst.Call) -> cst.Call | None:
    """The `TrainingArguments(...)` call a Trainer gets (`args=` or second positional), written inline or
    bound once to a name in the same scope or at module level; None when it is made elsewhere."""
    arg = call_arg(trainer, 1, "args")
    if arg is None:
        return None
    value = arg.value
    if isinstance(value, cst.Name):
        scope = context.scope_of(trainer)
        bindings = context.bindings(scope, value.value) or context.bindings(context.module, value.value)
        if len(bindings) != 1:
            return None
        value = bindings[0].value
    if isinstance(value, cst.Call) and is_arguments_call(context, value):
        return value
    return None


def given(call: cst.Call, keyword: str) -> cst.BaseExpression | None:
    """The value of `keyword=` unless it is a literal None."""
    arg = keyword_arg(call, keyword)
    if arg is None or (isinstance(arg.value, cst.Name) and arg.value.value == "None"):
        return None
    return arg.value


def splats(call: cst.Call) -> bool:
    """`f(**config)`: any keyword may be among the ones not written."""
    return any(arg.star == "**" for arg in call.args)

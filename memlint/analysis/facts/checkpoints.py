"""Where a file's checkpoints are saved from: evidence that their tensors are on the CPU.

`torch.load` without `map_location` puts tensors back on the device they were
saved from; a file that saves its own checkpoints from the CPU shows where
that is. Evidence: an FSDP full state dict gathered to the CPU
(`FullStateDictConfig(offload_to_cpu=True)`, `StateDictOptions(cpu_offload=True)`),
or `torch.save` of a value moved to the CPU (`x.cpu()`, `{k: v.cpu() ...}`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import bool_constant, call_arg, keyword_arg, method_name

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

TORCH_SAVE = {"torch.save", "torch.serialization.save"}
_CPU_OFFLOAD = {"FullStateDictConfig": "offload_to_cpu", "StateDictOptions": "cpu_offload"}


def saves_from_cpu(model: "FileContext") -> str | None:
    """How this file shows that it saves checkpoints from the CPU (as written), or None."""
    for call in model.tree.by_type.get(cst.Call, ()):
        name = (model.imports.resolve(call.func) or "").rsplit(".", 1)[-1]
        flag = _CPU_OFFLOAD.get(name)
        if flag is not None:
            arg = keyword_arg(call, flag)
            if arg is not None and bool_constant(arg.value) is True:
                return f"`{name}({flag}=True)`"
        elif model.imports.resolve(call.func) in TORCH_SAVE:
            saved = call_arg(call, 0, "obj")
            if saved is not None and _on_cpu(saved.value):
                return "`torch.save` of tensors moved to the CPU"
    return None


def _on_cpu(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Call):
        return method_name(expr) == "cpu" or (
            method_name(expr) == "to" and bool(expr.args) and "cpu" in _text(expr.args[0].value)
        )
    if isinstance(expr, cst.DictComp):
        return _on_cpu(expr.value)
    if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
        return _on_cpu(expr.elt)
    return False


def _text(expr: cst.BaseExpression) -> str:
    return expr.value if isinstance(expr, cst.SimpleString) else ""

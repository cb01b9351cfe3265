from __future__ import annotations

import re

import libcst as cst

from memlint.analysis.syntax.expressions import bool_constant, call_arg, code, keyword_arg
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule

AUTOCAST = {
    "torch.autocast",
    "torch.amp.autocast",
    "torch.amp.autocast_mode.autocast",
    "torch.cuda.amp.autocast",
    "torch.cpu.amp.autocast",
}
_DTYPE_POSITION = {"torch.autocast": 1, "torch.amp.autocast": 1, "torch.amp.autocast_mode.autocast": 1}
# A test or flag that picks the precision: `if args.fp16:`, `enabled=amp_dtype == torch.float16`.
_PRECISION = re.compile(r"fp16|float16|half|bf16|bfloat16|dtype|precision|16", re.IGNORECASE)
BF16 = "bf16"
FP16 = "fp16"
MAYBE = "maybe"
OFF = "off"


class GradScalerWithBf16(Rule):
    code = "ML015"
    name = "gradscaler-with-bf16"
    severity = Severity.WARNING
    summary = "`GradScaler` used with a bfloat16 autocast"
    fix_applicability = Applicability.DISPLAY_ONLY
    needles = (("GradScaler",), ("bfloat16", "bf16", "cpu"))
    what = """
Checks for a `GradScaler` (`torch.amp`, `torch.cuda.amp`, `ShardedGradScaler`)
created in the same function, class or file as an `autocast` region whose
dtype is `torch.bfloat16`. A scaler created with `enabled=` depending on the
dtype, with `enabled=False`, or under an `if` that picks fp16 (as written or
through a flag set from the dtype: `use_scaler = dtype == torch.float16`),
and fp16 autocast regions, are not reported.
"""
    why = """
Loss scaling exists for float16, whose smallest normal value is 6.1e-05:
small gradients underflow to zero unless the loss is scaled up first.
bfloat16 has the same exponent range as float32, so nothing underflows and
there is nothing to scale. The scaler still multiplies the loss, unscales
every gradient and checks them for inf/NaN on every step, skips the
optimizer step when that check trips, and with bfloat16 gradients
`unscale_` raises `NotImplementedError` (SAELens PR 723, which removed such a
scaler; transformers PR 21428 stopped the Trainer from scaling in bf16 mode).

Severity warning: wasted work on every step and possibly skipped steps, not
a leak; it fails outright only with bfloat16 parameters.
"""
    example = """
scaler = torch.amp.GradScaler("cuda")
for x, y in loader:
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = criterion(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
"""
    use_instead = """
for x, y in loader:
    with torch.autocast("cuda", dtype=torch.bfloat16):
        loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
"""

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        name = model.imports.resolve(node.func) or ""
        if not (name.startswith("torch.") and name.endswith("GradScaler")):
            return
        if any(arg.star == "**" for arg in node.args):
            return
        enabled = keyword_arg(node, "enabled")
        if enabled is not None:
            constant = bool_constant(enabled.value)
            if constant is False or (constant is None and self._picks_precision(enabled.value, node)):
                return
        if self._under_precision_test(node):
            return
        autocast = self._bf16_autocast(node)
        if autocast is None:
            return
        row = self._row(autocast)
        what = (
            f"a bfloat16 autocast (`{code(autocast.func)}`, line {row})"
            if self._dtype_of(autocast) == BF16
            else f"an autocast that may be bfloat16 (`{code(autocast.func)}`, line {row})"
        )
        message = f"`GradScaler` with {what} scales gradients that cannot underflow"
        hint = (
            "drop the scaler, or create it with `enabled=(amp_dtype == torch.float16)`; bfloat16 has float32's "
            "exponent range, and `unscale_` raises NotImplementedError on bfloat16 parameters"
        )
        self.report(node, message, hint)

    def _row(self, node: cst.CSTNode) -> int:
        """1-based line of `node`, for the message (computed only when reporting)."""
        return self.model.range_of(node).start.line

    # -- the scaler --------------------------------------------------------------
    def _picks_precision(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does `enabled=...` depend on the dtype (directly or through one name)?"""
        if _PRECISION.search(code(expr)):
            return True
        if isinstance(expr, cst.Name):
            for scope in (self.model.scope_of(at), self.model.module):
                for binding in self.model.bindings(scope, expr.value):
                    if binding.value is not None and _PRECISION.search(code(binding.value)):
                        return True
            if expr.value in self.model.params(self.model.scope_of(at)):
                return True  # a caller decides
        return False

    def _under_precision_test(self, node: cst.CSTNode) -> bool:
        """Is `node` built only when an `if` (or `x if ... else y`) picks fp16, as written or
        through a flag set from the dtype (`use_scaler = dtype == torch.float16`)?"""
        for anc in self.model.tree.ancestors(node):
            if isinstance(anc, (cst.FunctionDef, cst.ClassDef, cst.Module)):
                return False
            if isinstance(anc, (cst.If, cst.IfExp)) and self._tests_precision(anc.test, anc):
                return True
        return False

    def _tests_precision(self, test: cst.BaseExpression, at: cst.CSTNode) -> bool:
        if _PRECISION.search(code(test)):
            return True
        names = [test] if isinstance(test, cst.Name) else list(self.model.tree.descendants(test, cst.Name))
        for name in names:
            for scope in (self.model.scope_of(at), self.model.module):
                if any(
                    b.value is not None and _PRECISION.search(code(b.value)) for b in self.model.bindings(scope, name.value)
                ):
                    return True
        return False

    # -- the autocast --------------------------------------------------------------
    def _bf16_autocast(self, scaler: cst.Call) -> cst.Call | None:
        """A bfloat16 autocast next to the scaler: in its function, else its class
        (there, no fp16 autocast beside it), else its file (there, only certain
        bfloat16 autocasts outside any precision test)."""
        model = self.model
        scope = model.scope_of(scaler)
        regions: list[tuple[cst.CSTNode, bool]] = []
        if isinstance(scope, cst.FunctionDef):
            regions.append((scope, True))
            cls = model.enclosing_class(scope)
            if cls is not None:
                regions.append((cls, True))
        else:
            for anc in model.tree.ancestors(scaler):
                if isinstance(anc, cst.ClassDef):
                    regions.append((anc, True))
                    break
        regions.append((model.module, False))
        for region, near in regions:
            found = []
            for call in model.tree.descendants(region, cst.Call):
                if model.imports.resolve(call.func) in AUTOCAST:
                    kind = self._dtype_of(call)
                    if kind != OFF:
                        found.append((call, kind))
            if not found:
                continue  # the nearest code with autocast decides
            kinds = {kind for _, kind in found}
            if near:
                if FP16 in kinds:
                    return None
                return next((call for call, kind in found if kind in (BF16, MAYBE)), None)
            if kinds == {BF16} and not any(self._under_precision_test(call) for call, _ in found):
                return found[0][0]
            return None
        return None

    def _dtype_of(self, call: cst.Call) -> str | None:
        name = self.model.imports.resolve(call.func) or ""
        enabled = keyword_arg(call, "enabled")
        if enabled is not None and bool_constant(enabled.value) is False:
            return OFF
        arg = call_arg(call, _DTYPE_POSITION.get(name), "dtype")
        if arg is None:
            # the default dtype: bfloat16 on the CPU, float16 on CUDA
            if name == "torch.cpu.amp.autocast":
                return BF16
            if name == "torch.cuda.amp.autocast":
                return FP16
            device = call_arg(call, 0, "device_type")
            if device is not None and isinstance(device.value, cst.SimpleString):
                return BF16 if device.value.evaluated_value == "cpu" else FP16
            return None
        return self._dtype_value(arg.value, call, depth=0)

    def _dtype_value(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> str | None:
        if isinstance(expr, cst.IfExp):
            kinds = {self._dtype_value(expr.body, at, depth), self._dtype_value(expr.orelse, at, depth)}
            return MAYBE if BF16 in kinds or MAYBE in kinds else None
        if isinstance(expr, (cst.Name, cst.Attribute)):
            resolved = self.model.imports.resolve(expr)
            if resolved == "torch.bfloat16":
                return BF16
            if resolved in ("torch.float16", "torch.half"):
                return FP16
            if isinstance(expr, cst.Name) and depth < 3:
                kinds = set()
                for scope in (self.model.scope_of(at), self.model.module):
                    for binding in self.model.bindings(scope, expr.value):
                        kinds.add(self._dtype_value(binding.value, at, depth + 1) if binding.value is not None else None)
                    if kinds:
                        break
                if kinds == {BF16}:
                    return BF16
                if BF16 in kinds or MAYBE in kinds:
                    return MAYBE
                if kinds == {FP16}:
                    return FP16
        return None

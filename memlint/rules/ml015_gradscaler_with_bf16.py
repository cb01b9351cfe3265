from __future__ import annotations

import libcst as cst

from memlint.analysis.facts.condition_reads import DTYPE, condition_reads, tests_around
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
dtype is `torch.bfloat16`. A scaler created with `enabled=False`, or with
`enabled=` or under an `if` that reads the dtype (`use_scaler = dtype ==
torch.float16`) or what the autocast's dtype is chosen by (`if args.precision
== "fp16":` beside `dtype=torch.bfloat16 if args.precision == "bf16" else
...`), and fp16 autocast regions, are not reported: what a flag is computed
from decides, not its name. Where the scaler depends on a flag whose value the
file does not show (a parameter, an attribute of the parsed arguments) and
that does not also switch the autocast on, the finding says what it assumed
and is shown with `--preview` only.
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
        if enabled is not None and bool_constant(enabled.value) is False:
            return
        autocast = self._bf16_autocast(node)
        if autocast is None:
            return
        assumed = self._assumed(node, enabled.value if enabled is not None else None, autocast)
        if assumed is None:
            return  # the scaler follows the choice of precision
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
        if assumed:  # a test out of sight decides whether the scaler exists (a default run hides it)
            hint += f" (assumed: {assumed})"
        self.report(node, message, hint, **({"assumptions": [assumed]} if assumed else {}))

    def _row(self, node: cst.CSTNode) -> int:
        """1-based line of `node`, for the message (computed only when reporting)."""
        return self.model.range_of(node).start.line

    # -- whether the scaler follows the choice of precision ------------------------
    def _assumed(self, scaler: cst.Call, enabled: cst.BaseExpression | None, autocast: cst.Call) -> str | None:
        """None where the scaler is made or enabled only by the choice of precision (a test of a
        dtype, or of what the autocast's dtype is chosen by); "" where it runs with the autocast (no
        test, a test of what switches an always-bfloat16 autocast on too, or of values the file
        shows in full); else what the finding assumes of the test that decides, whose values are
        out of sight."""
        model = self.model
        tests = ([enabled] if enabled is not None else []) + tests_around(model, scaler)
        if not tests:
            return ""
        reads = [condition_reads(model, test, test) for test in tests]
        if any(DTYPE in read for read, _ in reads):
            return None
        dtype = call_arg(autocast, _DTYPE_POSITION.get(model.imports.resolve(autocast.func) or ""), "dtype")
        chosen_by = condition_reads(model, dtype.value, autocast)[0] if dtype is not None else set()
        if any(read & chosen_by for read, _ in reads):
            return None
        switched_by: set = set()
        on = keyword_arg(autocast, "enabled")
        for test in ([on.value] if on is not None else []) + tests_around(model, autocast):
            switched_by |= condition_reads(model, test, test)[0]
        # switched on together with an autocast that is always bfloat16; or tested on values the file shows
        together = self._dtype_of(autocast) == BF16 and any(read & switched_by for read, _ in reads)
        if together or not any(open_ for _, open_ in reads):
            return ""
        test = next(test for test, (_, open_) in zip(tests, reads) if open_)
        return f"`{code(test)}` does not pick float16 over bfloat16"

    # -- the autocast --------------------------------------------------------------
    def _bf16_autocast(self, scaler: cst.Call) -> cst.Call | None:
        """A bfloat16 autocast next to the scaler: in its function, else its class
        (there, no fp16 autocast beside it), else its file (there, only certain
        bfloat16 autocasts)."""
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
            if kinds == {BF16}:
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

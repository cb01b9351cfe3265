from __future__ import annotations

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
DTYPES = {"torch.float16", "torch.half", "torch.bfloat16"}
DTYPE = "dtype"  # what `_reads` says of an expression that reads a torch dtype
_DEPTH = 3  # assignments followed from a test to what it reads
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
        tests = ([enabled] if enabled is not None else []) + self._tests_around(scaler)
        if not tests:
            return ""
        reads = [self._reads(test, test) for test in tests]
        if any(DTYPE in read for read, _ in reads):
            return None
        dtype = call_arg(autocast, _DTYPE_POSITION.get(self.model.imports.resolve(autocast.func) or ""), "dtype")
        chosen_by = self._reads(dtype.value, autocast)[0] if dtype is not None else set()
        if any(read & chosen_by for read, _ in reads):
            return None
        switched_by: set = set()
        on = keyword_arg(autocast, "enabled")
        for test in ([on.value] if on is not None else []) + self._tests_around(autocast):
            switched_by |= self._reads(test, test)[0]
        # switched on together with an autocast that is always bfloat16; or tested on values the file shows
        together = self._dtype_of(autocast) == BF16 and any(read & switched_by for read, _ in reads)
        if together or not any(open_ for _, open_ in reads):
            return ""
        test = next(test for test, (_, open_) in zip(tests, reads) if open_)
        return f"`{code(test)}` does not pick float16 over bfloat16"

    def _tests_around(self, node: cst.CSTNode) -> list[cst.BaseExpression]:
        """The tests of the `if`s (and `x if ... else y`) of its function that `node` runs under."""
        tests = []
        for anc in self.model.tree.ancestors(node):
            if isinstance(anc, (cst.FunctionDef, cst.ClassDef, cst.Module)):
                break
            if isinstance(anc, (cst.If, cst.IfExp)) and not self.model.tree.contains(anc.test, node):
                tests.append(anc.test)
        return tests

    def _reads(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> tuple[set, bool]:
        """What `expr` is computed from, through the file's assignments (to names and to `self`'s
        attributes): each name or attribute read, keyed by where it is defined, DTYPE where a torch
        dtype is read; and whether some value read is out of sight (a parameter, an attribute of
        an object the file does not build, a name nothing binds)."""
        model = self.model
        read: set = set()
        out_of_sight = False
        stack: list[cst.CSTNode] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, (cst.Name, cst.Attribute)):
                resolved = model.imports.resolve(node)
                if resolved in DTYPES:
                    read.add(DTYPE)
                    continue
                root = node
                while isinstance(root, cst.Attribute):
                    root = root.value
                if not isinstance(root, cst.Name):
                    stack.append(root)  # `get_args().fp16`: what the call reads
                    out_of_sight = True
                    continue
                if root.value in model.imports.aliases or root.value in ("True", "False", "None"):
                    read.add(resolved)  # a library's function or constant: its meaning is known
                    continue
                key, values, seen = self._defined(node, root, at)
                read.add(key)
                if not seen or depth >= _DEPTH:
                    out_of_sight = True
                    continue
                for value in values:
                    inner, unseen = self._reads(value, value, depth + 1)
                    read |= inner
                    out_of_sight |= unseen
            elif not isinstance(node, (cst.SimpleString, cst.Integer, cst.Float)):
                stack.extend(node.children)
        return read, out_of_sight

    def _defined(self, node: cst.BaseExpression, root: cst.Name, at: cst.CSTNode) -> tuple[tuple, list, bool]:
        """Where `node` (a name, or an attribute chain on the name `root`) is defined, as a key; the
        values the file assigns it; whether the file shows them (False: a parameter, an attribute
        of an object the file does not fill, a name nothing binds)."""
        model = self.model
        if isinstance(node, cst.Attribute) and root.value == "self" and node.value is root:
            values = model.provenance.self_attribute_values(node.attr.value, at)
            return ("self", model.self_family(at), node.attr.value), values, bool(values)
        scope = model.scope_of(at)
        where: cst.CSTNode = scope
        if root.value in model.params(scope):
            return (id(scope), code(node)), [], False
        bindings = model.bindings(scope, root.value)
        if not bindings:
            where, bindings = model.module, model.bindings(model.module, root.value)
        if node is not root or not bindings:  # an attribute of a value the file holds: not filled here
            return (id(where), code(node)), [], False
        return (id(where), root.value), [b.value for b in bindings if b.value is not None], all(
            b.value is not None for b in bindings
        )

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

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst

from memlint.analysis.regions import lightning_precision as lightning
from memlint.analysis.syntax.expressions import bool_constant, code, keyword_arg, root_name, target_names
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule, torch_alias

AUTOCAST = {
    "torch.autocast",
    "torch.amp.autocast",
    "torch.amp.autocast_mode.autocast",
    "torch.cuda.amp.autocast",
    "torch.cpu.amp.autocast",
}

# How many calls deep a loop is looked for behind a call in the region (`loss = self.decode(h)`).
CALL_DEPTH = 2
WITHOUT_CACHE = "without the cast cache every module call makes and saves a new low-precision copy of its weights"
MEASURED = "+128 MiB per step measured for 4×Linear(4096)"
MEASURED_LIGHTNING = (
    "a 50-step decode in `training_step` peaked at 1,227 MiB per step against 345 MiB with the cache on, "
    "H100, Lightning 2.6.6; Lightning issue 21611"
)


@dataclass(frozen=True)
class RepeatedCalls:
    """A grad-enabled loop that calls modules, reached from a region directly or through `calls`."""

    loop: cst.For | cst.While
    calls: tuple[cst.Call, ...]  # the chain of calls from the region to the function holding the loop


class AutocastCacheDisabled(Rule):
    code = "ML002"
    name = "autocast-cache-disabled"
    severity = Severity.ERROR
    summary = "`autocast(cache_enabled=False)` around code that calls modules repeatedly with grad"
    fix_applicability = Applicability.UNSAFE
    needles = (("cache_enabled", "training_step"),)
    what = """
Checks for `autocast(..., cache_enabled=False)` (torch.autocast,
torch.amp.autocast, torch.cuda.amp.autocast) whose grad-enabled region calls
modules repeatedly (a loop in the `with` body or in the decorated function, or
in a function of the same file that the region calls, such as
`loss = self.decode(h, targets)`), or whose context manager is returned or
stored so that its region is unknown.

Also checks a LightningModule's `training_step` when the project's
`Trainer(precision="bf16-mixed")` (or `"16-mixed"`) runs it under Lightning's
own `torch.autocast(..., cache_enabled=False)`: Lightning 2.5.5 to 2.6.6 do
(issue 21611; fixed on master by PR 21616). The installed release is read
from package metadata; a release outside that range is not reported, and an
unknown one is reported as "Lightning 2.6.x". A loop the step itself wraps in
`torch.autocast(...)` with the cache on is fine.
"""
    why = """
With the cache off, every call of a module inside the region makes a new
low-precision copy of its weights, and autograd saves each copy for backward.
A 128-step decode loop through 4×Linear(4096) under
`autocast(bf16, cache_enabled=False)` peaked at 16.4 GiB against 0.21 GiB with
the cache on: +128 MiB per step, one bf16 copy of every weight (Lightning 2.6,
issue 21611).
"""
    example = """
with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):
    for _ in range(max_new_tokens):
        logits = model(tokens)
"""
    use_instead = """
with torch.autocast("cuda", dtype=torch.bfloat16):
    for _ in range(max_new_tokens):
        logits = model(tokens)
"""

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        if model.imports.resolve(node.func) not in AUTOCAST:
            return
        arg = keyword_arg(node, "cache_enabled")
        if arg is None or bool_constant(arg.value) is not False:
            return
        region, reason = self._region(node)
        if region is None and reason is None:
            return
        if region is not None:
            repeated = None if model.grad_state(region) is Grad.OFF else self._repeated_calls(region)
            if repeated is None:
                return
            reason = f"is on while {self._what_repeats(repeated, 'its region')} with grad enabled"
        message = f"`autocast(cache_enabled=False)` {reason}"
        fix = FixSpec(
            Applicability.UNSAFE,
            "Enable the autocast weight cache",
            ((arg.value, cst.Name("True")),),
        )
        hint = f"drop `cache_enabled=False` (the default caches casts); {WITHOUT_CACHE} ({MEASURED})"
        self.report(node, message, hint, fix=fix)

    def _region(self, call: cst.Call) -> tuple[cst.CSTNode | None, str | None]:
        """The code the autocast covers, or (None, reason) when it cannot be known."""
        tree = self.model.tree
        for parent in tree.ancestors(call):
            if isinstance(parent, cst.WithItem):
                with_node = tree.parent_of(parent)
                return with_node.body, None
            if isinstance(parent, cst.Decorator):
                return tree.parent_of(parent).body, None
            if isinstance(parent, cst.Return):
                return None, "is returned, so the code it will wrap cannot be checked"
            if isinstance(parent, cst.Assign):
                target = parent.targets[0].target
                if isinstance(target, cst.Name):
                    uses = self._with_uses(target.value, call)
                    if uses:
                        return uses[0], None
                return None, "is stored, so the code it will wrap cannot be checked"
            if isinstance(parent, cst.Arg):
                return None, "is passed on, so the code it will wrap cannot be checked"
            if not isinstance(parent, (cst.IfExp, cst.BooleanOperation)):
                return None, None
        return None, None

    def _with_uses(self, name: str, call: cst.Call) -> list[cst.CSTNode]:
        scope = self.model.scope_of(call)
        bodies = []
        for item in self.model.tree.descendants(scope, cst.WithItem):
            if isinstance(item.item, cst.Name) and item.item.value == name:
                bodies.append(self.model.tree.parent_of(item).body)
        return bodies

    # -- Lightning's own cache-less autocast around `training_step` -----------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        model = self.model
        if node.name.value != "training_step":
            return
        cls = model.enclosing_class(node)
        if cls is None or model.frameworks.framework_of(cls) != "lightning":
            return
        trainers = lightning.trainer_precisions(model)
        mixed = [t for t in trainers if t.mixed]
        if trainers and not mixed:
            return  # this file's Trainer runs the step without the cache-less autocast
        repeated = self._repeated_calls(node.body)
        if repeated is None:
            return
        if mixed:
            trainer = mixed[0]
            line = model.range_of(trainer.node).start.line
            runs_it = f'`Trainer(precision="{trainer.precision}")` (line {line})'
            dtype = f"{{torch}}.{lightning.dtype_of(trainer.precision)}"
            package = trainer.package
        else:
            runs_it = lightning.PROJECT_TRAINER
            dtype = "{torch}.get_autocast_dtype(self.device.type)"
            package = lightning.package_of(model)
        message = (
            f"`training_step` runs inside {lightning.UNKNOWN_VERSION}'s `torch.autocast(..., cache_enabled=False)` "
            f"under {runs_it}, and {self._what_repeats(repeated, 'it')} with grad"
        )
        hint = (
            "wrap the loop in `torch.autocast(device_type, dtype=..., cache_enabled=True)`: entering it turns the "
            f"cache back on for the loop; {WITHOUT_CACHE} ({MEASURED_LIGHTNING})"
        )
        target = repeated.calls[0] if repeated.calls else repeated.loop
        self.report(
            target,
            message,
            hint,
            fix=self._recache_fix(target, dtype),
            lightning={"package": package, "trainer": "file" if mixed else "project"},
        )

    def _recache_fix(self, target: cst.CSTNode, dtype: str) -> FixSpec | None:
        """`with torch.autocast(self.device.type, dtype=..., cache_enabled=True):` around the statement."""
        statement = target if isinstance(target, (cst.For, cst.While)) else self.model.tree.statement_of(target)
        if isinstance(statement, cst.BaseSmallStatement):
            statement = self.model.tree.parent_of(statement)
        if not isinstance(self.model.tree.parent_of(statement), (cst.IndentedBlock, cst.Module)):
            return None  # `if x: loss = self.decode(h)`: no block to put a `with` in
        torch = torch_alias(self.model)
        item = cst.parse_expression(
            f"{torch or 'torch'}.autocast(self.device.type, dtype={dtype.format(torch=torch or 'torch')}, cache_enabled=True)"
        )
        new = cst.With(
            items=[cst.WithItem(item)],
            body=cst.IndentedBlock(body=[statement.with_changes(leading_lines=[])]),
            leading_lines=statement.leading_lines,
        )
        return FixSpec(
            Applicability.UNSAFE,
            "Turn the autocast weight cache back on around the loop",
            ((statement, new),),
            "" if torch else "import torch\n",
        )

    # -- what repeats in a region ----------------------------------------------------------
    def _repeated_calls(
        self, region: cst.CSTNode, depth: int = CALL_DEPTH, seen: frozenset[int] = frozenset()
    ) -> RepeatedCalls | None:
        """A grad-enabled loop in `region` (or in a function of this file it calls) that calls modules.

        A loop inside a nested `autocast(...)` that leaves the cache on is not one: entering it
        turns the cache back on (the workaround for Lightning's cache-less autocast)."""
        model = self.model
        for loop_type in (cst.For, cst.While):
            for loop in model.tree.descendants(region, loop_type):
                if model.grad_state(loop.body) is Grad.OFF or self._recached(loop, region):
                    continue
                # `for layer in self.layers: h = layer(h)` calls each module once: nothing to cache
                fresh = set(target_names(loop.target)) if isinstance(loop, cst.For) else set()
                for call in model.tree.descendants(loop.body, cst.Call):
                    if root_name(call.func) in fresh:
                        continue
                    if model.provenance.is_module_call(call) or model.local_callees(call):
                        return RepeatedCalls(loop, ())
        if depth == 0:
            return None
        for call in model.tree.descendants(region, cst.Call):
            if model.grad_state(call) is Grad.OFF or self._recached(call, region):
                continue
            for callee in model.local_callees(call):
                if id(callee) not in seen:
                    found = self._repeated_calls(callee.body, depth - 1, seen | {id(callee)})
                    if found is not None:
                        return RepeatedCalls(found.loop, (call, *found.calls))
        return None

    def _recached(self, node: cst.CSTNode, region: cst.CSTNode) -> bool:
        """Is `node` inside an `autocast(...)` within `region` that does not turn the cache off?"""
        model = self.model
        for anc in model.tree.ancestors(node):
            if anc is region:
                return False
            if isinstance(anc, cst.With):
                for item in anc.items:
                    call = item.item
                    if isinstance(call, cst.Call) and model.imports.resolve(call.func) in AUTOCAST:
                        arg = keyword_arg(call, "cache_enabled")
                        if arg is None or bool_constant(arg.value) is not False:
                            return True
        return False

    def _what_repeats(self, repeated: RepeatedCalls, where: str) -> str:
        if not repeated.calls:
            return f"a loop in {where} calls modules repeatedly"
        holder = self.model.scope_of(repeated.loop)
        name = holder.name.value if isinstance(holder, cst.FunctionDef) else "it"
        return f"`{code(repeated.calls[0].func)}(...)` in {where} runs a loop (in `{name}`) that calls modules repeatedly"

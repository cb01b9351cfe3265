from __future__ import annotations

import libcst as cst

from memlint.analysis.expressions import bool_constant, keyword_arg
from memlint.analysis.grad_mode import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule

AUTOCAST = {
    "torch.autocast",
    "torch.amp.autocast",
    "torch.amp.autocast_mode.autocast",
    "torch.cuda.amp.autocast",
    "torch.cpu.amp.autocast",
}


class AutocastCacheDisabled(Rule):
    code = "ML002"
    name = "autocast-cache-disabled"
    severity = Severity.ERROR
    summary = "`autocast(cache_enabled=False)` around code that calls modules repeatedly with grad"
    fix_applicability = Applicability.UNSAFE
    needles = (("cache_enabled",),)
    what = """
Checks for `autocast(..., cache_enabled=False)` (torch.autocast,
torch.amp.autocast, torch.cuda.amp.autocast) whose grad-enabled region calls
modules repeatedly (a loop in the `with` body or in the decorated function),
or whose context manager is returned or stored so that its region is unknown.
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
            if model.grad_state(region) is Grad.OFF or not self._calls_repeatedly(region):
                return
            reason = "wraps a loop that calls modules repeatedly with grad enabled"
        message = f"`autocast(cache_enabled=False)` {reason}: every module call saves a new low-precision copy of its weights"
        fix = FixSpec(
            Applicability.UNSAFE,
            "Enable the autocast weight cache",
            ((arg.value, cst.Name("True")),),
        )
        self.report(node, message, "drop `cache_enabled=False` (the default caches casts); +128 MiB per step measured for 4×Linear(4096)", fix=fix)

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

    def _calls_repeatedly(self, region: cst.CSTNode) -> bool:
        model = self.model
        for loop_type in (cst.For, cst.While):
            for loop in model.tree.descendants(region, loop_type):
                if model.grad_state(loop.body) is Grad.OFF:
                    continue
                for call in model.tree.descendants(loop.body, cst.Call):
                    if model.provenance.is_module_call(call) or model.local_callees(call):
                        return True
        return False

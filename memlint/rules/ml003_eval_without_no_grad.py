from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.expressions import code, method_name
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule, torch_alias


class EvalWithoutNoGrad(Rule):
    code = "ML003"
    name = "eval-without-no-grad"
    severity = Severity.WARNING
    summary = "Evaluation code calls a model with autograd enabled"
    fix_applicability = Applicability.UNSAFE
    needles = (("eval", "val", "test", "predict", "infer"),)
    what = """
Checks for evaluation code (a function named `validate*`, `evaluate*`,
`eval*`, `test*`, `predict*` or `inference`, a loop after `model.eval()`, or a
loop over a validation/test loader) that calls a model with grad enabled, in
a function or loop that never calls `.backward()` or `torch.autograd.grad`.
"""
    why = """
`model.eval()` does not turn autograd off. Each forward pass then records a
graph and saves its activations for a backward pass that never comes, and any
output that is kept keeps them alive: appending the loss of such a loop grew
by +18 MiB per iteration (4×Linear(2048), batch 256) and `out.sum()` of batch
512 by +32 MiB per iteration; under `torch.no_grad()` both were flat.
"""
    example = """
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)
"""
    use_instead = """
@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)
"""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._reported: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        provenance = model.provenance
        via = ""
        facts = model.module_facts
        # a module by what the file does with it (`.eval()`, `.parameters()`), whatever its name; a
        # guess from a name only where the file does not show the callee is something else
        runs = facts.runs_module(node) or (provenance.is_module_call(node) and not facts.not_module(node))
        direct = runs and not provenance.is_loss_call(node)
        if not direct and not model.local_callees(node):
            return
        region = self._eval_region(node)
        if region is None or id(region) in self._reported:
            return
        if not direct:
            via = self._model_run_by_callee(node)
            if not via:
                return
        if model.grad_state(node) is not Grad.ON or self._needs_grad(region):
            return
        self._reported.add(id(region))
        if isinstance(region, cst.FunctionDef):
            where = f"evaluation function `{region.name.value}`"
            hint = f"decorate `{region.name.value}` with `@torch.no_grad()`"
        else:
            where = "this evaluation loop"
            hint = "wrap the loop in `with torch.no_grad():`"
        message = (
            f"`{code(node.func)}(...)` runs with autograd enabled in {where}, saving activations for a backward "
            "that never comes"
        )
        extra = {}
        if isinstance(region, cst.FunctionDef) and model.tree.parent_of(region) is model.module:
            # the project index drops this when other files call it only without grad
            extra = {"function": region.name.value, "in_file_calls": len(model.call_sites().get(region, ()))}
        guarded_torch = torch_alias(self.model) is None and any(
            dotted(alias.name) == "torch" and self.model.scope_of(node_) is self.model.module
            for node_ in self.model.tree.by_type.get(cst.Import, ())
            for alias in node_.names
        )
        # torch imported only under a condition (`if is_torch_available():`): a module-level
        # `import torch` would make it a hard dependency, so say what to do instead
        fix = None if guarded_torch else self._fix(region)
        self.report(node, message, hint + (f" ({via})" if via else ""), fix=fix, **extra)

    def _eval_region(self, call: cst.Call) -> cst.CSTNode | None:
        loops = self.model.loops
        scope = self.model.scope_of(call)
        if (
            loops.is_eval_function(scope)
            and self.model.provenance.class_kind(scope) != "module"
            and not self._part_of_callers(scope, call)
        ):
            return scope  # (a plain module's own `predict` method is part of its forward)
        for loop in reversed(self.model.enclosing_loops(call)):  # outermost first
            if loops.is_training_loop(loop):
                continue
            if loops.iterates_eval_data(loop) or loops.follows_model_eval(loop):
                return loop
        if self._inference_after_eval(call, scope):
            return scope
        return None

    def _inference_after_eval(self, call: cst.Call, scope: cst.CSTNode) -> bool:
        """A function that puts the very model it calls in eval mode, then runs it outside any loop,
        and never differentiates nor steps: straight-line inference (an inference script's `main`)."""
        model = self.model
        loops = model.loops
        if not isinstance(scope, cst.FunctionDef) or model.enclosing_loops(call):
            return False
        if loops.is_module_forward(scope) or loops.per_step_method(scope) or loops.trains_each_iteration(scope):
            return False
        if loops.is_test_function(scope):
            return False  # a test runs the model once to check an export, not to serve it
        func = call.func
        # `model(x)`, `self.model(x)` or a method of it, `model.forward_local(x)`
        receivers = {code(func)} | ({code(func.value)} if isinstance(func, cst.Attribute) else set())
        position = model.tree.order[id(call)]
        in_eval = False
        for other in model.tree.descendants(scope, cst.Call):
            if model.tree.order[id(other)] >= position:
                break
            if isinstance(other.func, cst.Attribute) and code(other.func.value) in receivers:
                if other.func.attr.value == "eval" and not other.args:
                    in_eval = True
                elif other.func.attr.value == "train":
                    in_eval = False
        return in_eval

    def _model_run_by_callee(self, call: cst.Call) -> str:
        """Where a function of this file that `call` runs calls, with grad on, a model that the
        call hands it (by the callee's summary), when that function is not evaluation code of
        its own (reported there)."""
        model = self.model
        for callee in model.local_callees(call):
            run = model.summaries.model_run(callee)
            if run is None or model.loops.is_eval_function(callee) or model.loops.has_backward(callee):
                continue
            handed = model.summaries.argument_for(call, callee, run.func.value)
            if handed is not None:
                return f"`{model.summaries.name(callee)}` calls {model.summaries.describe(run)}"
        return ""

    def _part_of_callers(self, func: cst.FunctionDef, call: cst.Call) -> bool:
        """Named like evaluation, but the call graph says it runs as part of its callers: every
        call of it in this file is in a module's `forward` (torchrl's `_predict`), or it is a
        helper with no loop of its own that runs a model it is handed and does not switch it to
        eval mode (monai's `_run_inference(network, patch)`): the grad mode is whichever its
        caller, evaluating or training, chose. (A validation run from inside the training loop
        is still evaluation.)"""
        model = self.model
        sites = model.call_sites().get(func, ())
        if sites:
            return all(self._in_forward(site) for site in sites)
        if model.tree.descendants(func.body, cst.For) or model.tree.descendants(func.body, cst.While):
            return False
        runs_param = isinstance(call.func, cst.Name) and call.func.value in model.params(func)
        sets_eval = any(method_name(c) == "eval" for c in model.tree.descendants(func.body, cst.Call))
        return runs_param and not sets_eval

    def _in_forward(self, node: cst.CSTNode) -> bool:
        scope = self.model.scope_of(node)
        return isinstance(scope, cst.FunctionDef) and self.model.loops.is_module_forward(scope)

    def _needs_grad(self, region: cst.CSTNode) -> bool:
        """Saliency, adversarial and gradient-penalty code differentiates on purpose."""
        model = self.model
        if model.loops.has_backward(region):
            return True
        for call in model.tree.descendants(region, cst.Call):
            name = model.imports.resolve(call.func) or ""
            if method_name(call) == "requires_grad_" or name.startswith(("torch.func.", "functorch.")):
                return True
        for assign in model.tree.descendants(region, cst.Assign):
            t = assign.targets[0].target
            if isinstance(t, cst.Attribute) and t.attr.value == "requires_grad":
                return True
        return False

    def _fix(self, region: cst.CSTNode) -> FixSpec:
        torch = torch_alias(self.model)
        prepend = "" if torch else "import torch\n"
        torch = torch or "torch"
        no_grad = cst.parse_expression(f"{torch}.no_grad()")
        if isinstance(region, cst.FunctionDef):
            # innermost, so that @staticmethod / @classmethod still apply to the result
            new = region.with_changes(decorators=[*region.decorators, cst.Decorator(no_grad)])
            message = "Decorate the evaluation function with `@torch.no_grad()`"
        else:
            new = cst.With(
                items=[cst.WithItem(no_grad)],
                body=cst.IndentedBlock(body=[region.with_changes(leading_lines=[])]),
                leading_lines=region.leading_lines,
            )
            message = "Wrap the evaluation loop in `with torch.no_grad():`"
        return FixSpec(Applicability.UNSAFE, message, ((region, new),), prepend)

"""Is autograd on where a node runs?

Answers ON, OFF or MAYBE (`set_grad_enabled(flag)` with a flag known only at
run time). Sources: `with no_grad()/inference_mode()/set_grad_enabled(...)`,
a bare `torch.set_grad_enabled(False)` or `stack.enter_context(torch.no_grad())`
on an `ExitStack` earlier in the block, decorators (a project's own
`smart_inference_mode()`-style wrapper too),
framework hooks that the framework runs without grad (`frameworks`), Hugging Face
pipelines' `_forward` (run under inference mode by `Pipeline.forward`),
ultralytics predictors' methods (run by `BasePredictor.stream_inference`
under `smart_inference_mode()`), and functions of the same file that are
only ever called from no-grad code.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.library import MODULE_RUN_METHODS
from memlint.analysis.regions.grad import Grad
from memlint.analysis.syntax.calls import argument_for, parameter_names
from memlint.analysis.syntax.expressions import bool_constant, call_arg

if TYPE_CHECKING:
    from memlint.analysis.regions.frameworks import Frameworks
    from memlint.analysis.syntax.calls import Calls
    from memlint.analysis.syntax.imports import Imports
    from memlint.analysis.syntax.scopes import Scopes


NO_GRAD = {
    "torch.no_grad",
    "torch.autograd.no_grad",
    "torch.autograd.grad_mode.no_grad",
}
INFERENCE_MODE = {"torch.inference_mode", "torch.autograd.grad_mode.inference_mode"}
SET_GRAD_ENABLED = {
    "torch.set_grad_enabled",
    "torch.autograd.set_grad_enabled",
    "torch.autograd.grad_mode.set_grad_enabled",
    "torch._C._set_grad_enabled",
}
ENABLE_GRAD = {"torch.enable_grad", "torch.autograd.enable_grad", "torch.autograd.grad_mode.enable_grad"}
# The last names of the bare calls that set grad mode: `torch.set_grad_enabled(False)`, `stack.enter_context(cm)`.
_BARE_CALL_METHODS = {name.rsplit(".", 1)[-1] for name in SET_GRAD_ENABLED} | {"enter_context", "__enter__"}

def _no_grad_wrapper(name: str | None) -> bool:
    """A project's own wrapper of `no_grad`/`inference_mode`, named for it
    (ultralytics' `smart_inference_mode()`, which picks one by torch version)."""
    last = (name or "").rsplit(".", 1)[-1]
    return not (name or "").startswith("torch.") and last.endswith(("inference_mode", "no_grad")) and last != "is_inference_mode"


class GradMode:
    def __init__(self, scopes: "Scopes", calls: "Calls", imports: "Imports", frameworks: "Frameworks") -> None:
        self.scopes = scopes
        self.calls = calls
        self.imports = imports
        self.frameworks = frameworks
        self._entry: dict[int, Grad] = {}
        self._predictors: dict[int, bool] = {}  # id(class) -> `_predictor`
        self._declared: dict[int, Grad | None] = {}  # id(function) -> `_declared_entry`, asked again each round of `_callers_only_off`
        self._callers_off: set[int] | None = None
        self._bare_calls: dict[int, list[tuple[int, Grad]]] | None = None
        self._callers_done = False
        self._entering: set[int] = set()  # id(function) of the context managers `_own_context_manager` is reading

    # -- what a single expression does to grad mode -------------------------
    def effect(self, expr: cst.BaseExpression) -> Grad | None:
        """The grad mode a context manager or decorator expression sets."""
        resolve = self.imports.resolve
        if isinstance(expr, cst.Call):
            name = resolve(expr.func)
            if name in NO_GRAD:
                return Grad.OFF
            if name in INFERENCE_MODE:
                mode = call_arg(expr, 0, "mode")
                flag = bool_constant(mode.value) if mode is not None else True
                return Grad.OFF if flag is True else (None if flag is False else Grad.MAYBE)
            if name in SET_GRAD_ENABLED:
                arg = call_arg(expr, 0, "mode")
                flag = bool_constant(arg.value) if arg is not None else None
                return Grad.MAYBE if flag is None else (Grad.ON if flag else Grad.OFF)
            if name in ENABLE_GRAD:
                return Grad.ON
            if _no_grad_wrapper(name):
                return Grad.OFF
            return self._own_context_manager(expr)
        name = resolve(expr)
        if name in NO_GRAD or name in INFERENCE_MODE or _no_grad_wrapper(name):
            return Grad.OFF  # bare decorator: @torch.no_grad
        if name in ENABLE_GRAD:
            return Grad.ON
        return None

    def _own_context_manager(self, call: cst.Call) -> Grad | None:
        """A `@contextmanager` function of this file that yields inside a grad-mode context
        (monai's `eval_mode(net)`: `with torch.no_grad(): yield`): the body of a `with` on it
        runs in that mode."""
        if not isinstance(call.func, cst.Name):
            return None
        for func in self.scopes.functions.get(call.func.value, ()):
            decorated = any(
                (self.imports.resolve(d.decorator) or "").endswith("contextmanager") for d in func.decorators
            )
            if not decorated or self.scopes.enclosing_class(func) is not None or id(func) in self._entering:
                continue  # (one that yields inside a `with` on itself is asked once, not forever)
            self._entering.add(id(func))
            try:
                modes = {self._mode_around(y, func) for y in self.scopes.tree.descendants(func.body, cst.Yield)}
            finally:
                self._entering.discard(id(func))
            if len(modes) == 1 and None not in modes:
                return modes.pop()
        return None

    def _mode_around(self, node: cst.CSTNode, func: cst.FunctionDef) -> Grad | None:
        """The grad mode a `with` inside `func` sets around `node` (None: none does)."""
        child = node
        for anc in self.scopes.tree.ancestors(node):
            if anc is func:
                return None
            if isinstance(anc, cst.With) and child is anc.body:
                for item in reversed(anc.items):
                    effect = self.effect(item.item)
                    if effect is not None:
                        return effect
            child = anc
        return None

    # -- grad mode at a node -------------------------------------------------
    @cached_property
    def _always_on(self) -> bool:
        """Does nothing in this file switch grad mode: no `with` item, decorator or bare call that
        sets one (a function of this file used as a context manager sets one only through those),
        and no function that a framework (or its class) runs in a mode of its own? Then every node
        runs with grad on, and no function is called only without grad: `state` needs no walk (and
        the file's call sites are not looked up for it). Most files of a library are such files."""
        tree = self.scopes.tree
        if any(self.effect(item.item) is not None for node in tree.by_type.get(cst.With, ()) for item in node.items):
            return False
        if self._bare_call_table():
            return False
        functions = tree.by_type.get(cst.FunctionDef, ())
        return all(self._declared_entry(func) is None for func in functions) and not any(
            self.called_only_without_grad_elsewhere(func) for func in functions
        )

    def state(self, node: cst.CSTNode) -> Grad:
        if self._always_on:
            return Grad.ON
        found = self.set_around(node)
        return self.entry_state(found) if type(found) is cst.FunctionDef else found  # type: ignore[arg-type]

    def set_around(self, node: cst.CSTNode) -> Grad | cst.FunctionDef:
        """The grad mode the code around `node` sets for it (a `with`, a switch before it in its block),
        or, where nothing does, the function whose entry mode it runs in (Grad.ON at module level)."""
        tree = self.scopes.tree
        child = node
        for anc in tree.ancestors(node):
            kind = type(anc)  # exact types: `isinstance` against LibCST's classes goes through ABCMeta
            if kind is cst.With and child is anc.body:
                for item in reversed(anc.items):
                    effect = self.effect(item.item)
                    if effect is not None:
                        return effect
            elif kind is cst.IndentedBlock or kind is cst.Module:
                effect = self._bare_call_before(anc, child)
                if effect is not None:
                    return effect
            elif kind is cst.FunctionDef and child is anc.body:
                return anc  # type: ignore[return-value]
            child = anc
        return Grad.ON

    def _bare_call_before(self, suite: cst.CSTNode, stmt: cst.CSTNode) -> Grad | None:
        calls = self._bare_call_table().get(id(suite))
        if not calls:
            return None
        position = self.scopes.tree.order[id(stmt)]
        before = [effect for order, effect in calls if order < position]
        return before[-1] if before else None

    def _bare_call_table(self) -> dict[int, list[tuple[int, Grad]]]:
        """id(block) -> (position, effect) of the bare calls in it that set grad mode."""
        if self._bare_calls is None:
            self._bare_calls = {}
            tree = self.scopes.tree
            for call in tree.by_type.get(cst.Call, ()):
                func = call.func
                if type(func) is cst.Attribute and func.attr.value not in _BARE_CALL_METHODS:
                    continue  # (a method call resolves to a name ending in its method: no resolving needed)
                if self.imports.resolve(func) in SET_GRAD_ENABLED:
                    effect = self.effect(call)
                elif self._enters_on_exit_stack(call):
                    effect = self.effect(call.args[0].value)
                elif type(func) is cst.Attribute and func.attr.value == "__enter__" and type(func.value) is cst.Call:
                    effect = self.effect(func.value)  # `torch.no_grad().__enter__()`: entered, never left
                else:
                    continue
                self._add_bare_call(call, effect)
            self._add_calls_of_project_functions()
            if self._bare_calls:
                self._add_calls_of_leaving_functions()
        return self._bare_calls

    def _add_calls_of_project_functions(self) -> None:
        """A statement that calls a function of another file of the project which leaves grad mode
        switched (its summary's `leaves_grad`: `train_agent(args)`) sets it for the statements after it."""
        project = self.frameworks.project
        for statement in self.scopes.tree.by_type.get(cst.Expr, ()):
            call = statement.value
            if type(call) is cst.Call and type(call.func) in (cst.Name, cst.Attribute):
                entry = project.function(call)  # (asked in the first phase: the index hands its facts in the second)
                left = (entry or {}).get("leaves_grad")
                if left in ("on", "off"):
                    self._add_bare_call(call, Grad.ON if left == "on" else Grad.OFF)

    def leaves(self, func: cst.FunctionDef) -> Grad | None:
        """The grad mode `func` leaves switched when it returns (None: as its caller had it)."""
        if self._always_on:
            return None
        self._bare_call_table()
        return self._leaves(func)

    def _add_bare_call(self, call: cst.Call, effect: Grad | None) -> bool:
        """Record `call`, a statement of its own, as setting `effect` for the statements after it."""
        tree = self.scopes.tree
        expr = tree.parent_of(call)
        line = tree.parent_of(expr) if isinstance(expr, cst.Expr) else None
        block = tree.parent_of(line) if line is not None else None
        if block is None or effect is None:
            return False
        self._bare_calls.setdefault(id(block), []).append((tree.order[id(line)], effect))  # type: ignore[union-attr]
        return True

    def _add_calls_of_leaving_functions(self) -> None:
        """A function of this file that switches grad mode with a bare call and never switches it
        back leaves the process in that mode (`def train_agent(): torch.set_grad_enabled(False)...`):
        a statement that calls it sets the mode for the statements after it, like the bare call.
        Functions that call such a function are asked in turn (a few rounds: call chains are short)."""
        tree = self.scopes.tree
        done: set[int] = set()
        for _ in range(3):
            leaving = {}
            for func in tree.by_type.get(cst.FunctionDef, ()):
                if id(func) not in done and self.scopes.enclosing_class(func) is None:
                    effect = self._leaves(func)
                    if effect is not None:
                        leaving[func.name.value] = effect
                        done.add(id(func))
            added = False
            for statement in tree.by_type.get(cst.Expr, ()):
                call = statement.value
                if type(call) is cst.Call and type(call.func) is cst.Name and call.func.value in leaving:
                    if self.scopes.named_callees(call):
                        added |= self._add_bare_call(call, leaving[call.func.value])
            if not added:
                return

    def _leaves(self, func: cst.FunctionDef) -> Grad | None:
        """The grad mode `func` leaves set when it returns: the last bare call of its own body's
        top level, where no `return` comes before it (a path that returns earlier leaves the mode
        as it was)."""
        calls = self._bare_calls.get(id(func.body)) if self._bare_calls else None
        if not calls:
            return None
        position, effect = max(calls)
        tree = self.scopes.tree
        if any(
            tree.order[id(ret)] < position and self.scopes.scope_of(ret) is func
            for ret in tree.descendants(func.body, cst.Return)
        ):
            return None
        return effect

    def _enters_on_exit_stack(self, call: cst.Call) -> bool:
        """`stack.enter_context(cm)` on an `ExitStack`: `cm` stays entered for the
        rest of the stack's life, so it acts like a bare call on the statements after it."""
        func = call.func
        if not (
            type(func) is cst.Attribute
            and func.attr.value == "enter_context"
            and type(func.value) is cst.Name
            and call.args
        ):
            return False
        scopes = self.scopes
        for binding in scopes.bindings(scopes.scope_of(call), func.value.value):
            made = binding.node.item if type(binding.node) is cst.WithItem else binding.value
            if type(made) is cst.Call and (self.imports.resolve(made.func) or "").endswith("ExitStack"):
                return True
        return False

    def entry_state(self, func: cst.FunctionDef) -> Grad:
        if self._always_on:
            return Grad.ON
        cached = self._entry.get(id(func))
        if cached is not None:
            return cached
        state = self._declared_entry(func)
        if state is None:
            callers_off = self._callers_only_off()
            state = Grad.OFF if id(func) in callers_off else Grad.ON
            if self._callers_off is not None and self._callers_done:
                self._entry[id(func)] = state
            return state
        self._entry[id(func)] = state
        return state

    def declared_entry(self, func: cst.FunctionDef) -> Grad | None:
        """The grad mode `func` declares for its body (a decorator, a framework that runs it), None
        where its callers decide."""
        return self._declared_entry(func)

    def runs_without_grad(self, func: cst.FunctionDef) -> bool:
        """Does `func` run all it does with grad off: declared so (`@torch.no_grad()`), or every call
        of its own body inside a no-grad context (dinov2's `ModelWithIntermediateLayers.forward`:
        `with torch.inference_mode(): ...` around all of it), the grad-mode context managers aside?"""
        if self._declared_entry(func) is Grad.OFF:
            return True
        if self._always_on:
            return False
        tree = self.scopes.tree
        runs = [
            call
            for call in tree.descendants(func.body, cst.Call)
            if self.scopes.scope_of(call) is func and self.effect(call) is None
        ]
        return bool(runs) and all(self.state(call) is Grad.OFF for call in runs)

    def _declared_entry(self, func: cst.FunctionDef) -> Grad | None:
        key = id(func)
        if key not in self._declared:
            self._declared[key] = self._declaration(func)
        return self._declared[key]

    def _declaration(self, func: cst.FunctionDef) -> Grad | None:
        """The grad mode `func` declares for its body: a decorator, a framework that runs it, a class it belongs to."""
        for decorator in func.decorators:
            effect = self.effect(decorator.decorator)
            if effect is not None:
                return effect
        hook = self.frameworks.hook(func)
        if hook is not None and hook.grad is not Grad.ON:
            return hook.grad  # a hook run with grad on takes its callers' mode like any function
        cls = self.scopes.enclosing_class(func)
        if cls is not None and func.name.value == "_forward" and self._is_hf_pipeline(cls):
            return Grad.OFF
        if cls is not None and self._predictor(cls):
            return Grad.OFF
        return None

    def _predictor(self, cls: cst.ClassDef) -> bool:
        """`_is_ultralytics_predictor`, once per class (each of its methods asks)."""
        key = id(cls)
        if key not in self._predictors:
            self._predictors[key] = self._is_ultralytics_predictor(cls, set())
        return self._predictors[key]

    def _is_ultralytics_predictor(self, cls: cst.ClassDef, seen: set[str]) -> bool:
        """An ultralytics predictor: `BasePredictor.stream_inference` runs its whole
        pipeline (preprocess, inference, postprocess) under `smart_inference_mode()`."""
        seen.add(cls.name.value)
        for base in cls.bases:
            name = self.imports.resolve(base.value) or ""
            if name.startswith("ultralytics.") and name.endswith("Predictor"):
                return True
            if isinstance(base.value, cst.Name) and base.value.value not in seen:
                local = [c for c in self.scopes.tree.by_type.get(cst.ClassDef, ()) if c.name.value == base.value.value]
                if any(self._is_ultralytics_predictor(c, seen) for c in local):
                    return True
        return False

    def _is_hf_pipeline(self, cls: cst.ClassDef) -> bool:
        """A Hugging Face pipeline: `Pipeline.forward` runs `_forward` under inference mode."""
        return any((self.imports.resolve(base.value) or "").endswith("Pipeline") for base in cls.bases)

    def called_with_grad_elsewhere(self, func: cst.FunctionDef) -> bool:
        """A top-level function that another file of the project calls with grad on (its facts say)."""
        return self.scopes.tree.parent_of(func) is self.scopes.module and self.frameworks.project.called_with_grad_elsewhere(
            func.name.value
        )

    def evaluated_elsewhere(self, func: cst.FunctionDef) -> bool:
        """A top-level function whose every call with grad on in another file of the project hands it
        modules in eval mode only, outside any training step (their facts say)."""
        return self.scopes.tree.parent_of(func) is self.scopes.module and self.frameworks.project.evaluated_elsewhere(
            func.name.value
        )

    def called_only_without_grad_elsewhere(self, func: cst.FunctionDef) -> bool:
        """A top-level function, or a method of a top-level class, that other files of the project
        call, every one of those calls without grad (their facts say: under their `no_grad`, or in a
        function of theirs that runs only without grad; for a method, also every call of its name on
        any object, and no file hands it on uncalled). A method that Python runs through syntax (a
        dunder: `obj(x)`, `obj[k]`), that calling a module runs (`forward`), or that a framework runs
        (Lightning's `training_step`) has runs no call names."""
        name = self.scopes.exported_name(func)
        method = func.name.value
        if name is None:
            return False
        if name != method and (method.startswith("__") or method in MODULE_RUN_METHODS or self.frameworks.hook(func) is not None):
            return False
        return self.frameworks.project.called_only_without_grad_elsewhere(name)

    def _dispatched_off(self, call: cst.Call, sites: dict[cst.FunctionDef, list[cst.Call]]) -> bool:
        """Is `call` made only on a branch that its function takes for a literal its callers hand it
        (`elif type_ == "valid": self.batch_validate()`), and does every call of the function in this file
        that may hand that literal run without grad? A caller that hands another literal never reaches it."""
        entered = self._entry_guards(call)
        if entered is None or entered[0] not in sites or self.called_with_grad_elsewhere(entered[0]):
            return False
        func, guards = entered
        params = set(parameter_names(func))
        guards = [(param, literal) for param, literal in guards if param in params]
        if not guards:
            return False
        reaching = [
            site
            for site in sites[func]
            if all(_literal_text(argument_for(site, func, param)) in (None, literal) for param, literal in guards)
        ]
        return bool(reaching) and all(self.state(site) is Grad.OFF for site in reaching)

    def _entry_guards(self, node: cst.CSTNode) -> tuple[cst.FunctionDef, list[tuple[str, str]]] | None:
        """The function whose entry mode `node` runs in (no grad context between them), with the tests
        `name == "literal"` of the `if` branches around `node`; None where a context sets the mode."""
        guards: list[tuple[str, str]] = []
        child = node
        for anc in self.scopes.tree.ancestors(node):
            kind = type(anc)
            if kind is cst.With and child is anc.body and any(self.effect(item.item) is not None for item in anc.items):
                return None
            if (kind is cst.IndentedBlock or kind is cst.Module) and self._bare_call_before(anc, child) is not None:
                return None
            if kind is cst.If and child is anc.body:
                guards += _literal_test(anc.test)
            if kind is cst.FunctionDef:
                return (anc, guards) if child is anc.body else None
            child = anc
        return None

    def _callers_only_off(self) -> set[int]:
        """Functions whose every call site in this file runs without grad, and that no other file of
        the project calls with grad on; and top-level functions that this file neither calls nor
        hands on, whose every call in the other files of the project runs without grad."""
        if self._callers_off is not None:
            return self._callers_off
        self._callers_off = set()
        sites = dict(self.calls.call_sites())
        for func in self.scopes.tree.by_type.get(cst.FunctionDef, ()):
            runs = self.frameworks.hook_runs(func)
            if runs:  # a forward hook runs with the grad mode of the module's runs
                sites[func] = runs
            elif (
                not sites.get(func)
                and self._declared_entry(func) is None
                and not self.calls.handed_on(func)
                and self.called_only_without_grad_elsewhere(func)
            ):
                self._callers_off.add(id(func))
        candidates = [f for f in sites if self._declared_entry(f) is None]
        changed = True
        while changed:
            changed = False
            for func in candidates:
                if id(func) in self._callers_off:
                    continue
                calls = sites[func]
                if (
                    calls
                    and all(self.state(call) is Grad.OFF or self._dispatched_off(call, sites) for call in calls)
                    and not self.called_with_grad_elsewhere(func)
                ):
                    self._callers_off.add(id(func))
                    changed = True
        self._callers_done = True
        return self._callers_off


def _literal_test(test: cst.BaseExpression) -> list[tuple[str, str]]:
    """`[(name, literal)]` for a test `name == literal` (either side), else []."""
    if type(test) is not cst.Comparison or len(test.comparisons) != 1 or type(test.comparisons[0].operator) is not cst.Equal:
        return []
    left, right = test.left, test.comparisons[0].comparator
    for name, value in ((left, right), (right, left)):
        literal = _literal_text(value)
        if type(name) is cst.Name and literal is not None:
            return [(name.value, literal)]
    return []


def _literal_text(expr: cst.BaseExpression | None) -> str | None:
    """The source of a string or number literal (`"valid"`, `3`), None for anything else."""
    if type(expr) in (cst.SimpleString, cst.Integer, cst.Float):
        return expr.value  # type: ignore[union-attr]
    return None

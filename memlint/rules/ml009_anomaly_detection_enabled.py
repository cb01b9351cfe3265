from __future__ import annotations

import re

import libcst as cst

from memlint.analysis.syntax.expressions import bool_constant, call_arg, callee_name, code, keyword_arg, names_in
from memlint.patterns import is_test_path
from memlint.analysis.library import TRAINING_METHODS
from memlint.analysis.regions.per_step import step_context
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule

SET_DETECT_ANOMALY = {"torch.autograd.set_detect_anomaly", "torch.autograd.anomaly_mode.set_detect_anomaly"}
DETECT_ANOMALY = {"torch.autograd.detect_anomaly", "torch.autograd.anomaly_mode.detect_anomaly"}
_TRAINER_ROOTS = ("lightning", "pytorch_lightning", "lightning_fabric", "Trainer")
# Names of debugging helpers and of training calls, for functions the file neither calls nor defines
# (what the finding then assumes): where the file shows its callers or its body, they decide.
_DEBUG_FUNCTION = re.compile(r"debug|anomal|nan|diagnos|sanity", re.IGNORECASE)
_TRAIN_CALL = re.compile(
    r"^_*(fit|train|training|train_epoch|train_one_epoch|run_training|train_loop)(_|$)", re.IGNORECASE
)
FIGURES = "1.5x-3x slower training (nerf-pytorch issue 42, ignite PR 219, Lightning issue 12344)"


class AnomalyDetectionEnabled(Rule):
    code = "ML009"
    name = "anomaly-detection-enabled"
    severity = Severity.WARNING
    summary = "Autograd anomaly detection is switched on unconditionally for training"
    fix_applicability = Applicability.UNSAFE
    needles = (("anomaly",),)
    what = """
Checks for autograd anomaly detection that is on for every run:
`torch.autograd.set_detect_anomaly(True)` (at module level, in `__init__`,
`main`, a loop body...), `with torch.autograd.detect_anomaly():` (or
`set_detect_anomaly(True)`) around a training loop, a training call (a function
of the project whose body trains, whatever its name, or a library's:
Lightning's `Trainer.fit`, transformers' `Trainer.train`) or inside a step, and
Lightning's `Trainer(detect_anomaly=True)`. Switching it on behind a flag
(`set_detect_anomaly(args.debug)`), under an `if` (not one that only asks
whether an import succeeded: `if pl is not None:`), from an
environment variable, in tests, in a function the file calls only so (`if
args.debug: check_gradients()`), whatever its name, or switching it off, is
fine. Where only a name says what code out of sight does (a training call
defined elsewhere, `runner.train_loop()`; a function no code in sight calls,
named like a debugging helper), the finding says what it assumed, offers no
edit and is shown with `--preview` only.

Severity: warning: it costs time, not memory that grows; and it stops a run
at the first NaN, which some code wants.
"""
    why = """
Anomaly mode records the forward traceback in every autograd node and checks
every backward output for NaN; it is a debugging tool, and left on it slows
training: about 1.5× in nerf-pytorch (issue 42), about 2.5× in ignite (PR 219:
22 s against 52-57 s per epoch) and 3× in Lightning (issue 12344).
"""
    example = """
torch.autograd.set_detect_anomaly(True)

for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
"""
    use_instead = """
torch.autograd.set_detect_anomaly(args.debug_anomaly)

for x, y in loader:
    loss = criterion(model(x), y)
    loss.backward()
    optimizer.step()
"""

    def visit_Call(self, node: cst.Call) -> None:
        if is_test_path(self.model.path):
            return
        qualified = self.model.imports.resolve(node.func) or ""
        if qualified in SET_DETECT_ANOMALY:
            self._set_detect_anomaly(node)
        elif qualified in DETECT_ANOMALY:
            self._detect_anomaly(node)
        elif "detect_anomaly" in _keywords(node) and _is_trainer(qualified):
            self._trainer(node)

    # -- the three forms -------------------------------------------------------------
    def _set_detect_anomaly(self, call: cst.Call) -> None:
        arg = call_arg(call, 0, "mode")
        if arg is None or bool_constant(arg.value) is not True:
            return
        fix = FixSpec(
            Applicability.UNSAFE,
            "Switch anomaly detection off (`True` -> `False`); delete the call if it is no longer wanted",
            ((arg.value, cst.Name("False")),),
        )
        parent = self.model.tree.parent_of(call)
        assumed = None
        if isinstance(parent, cst.WithItem):
            reason = self._with_reason(call, parent)
            if reason is None:
                return
            where, assumed = reason
            message = f"`with set_detect_anomaly(True):` {where}, checking every backward in anomaly mode"
        else:
            if self._guarded(call):
                return
            message = f"`{code(call.func)}(True)` switches anomaly mode on for the whole run"
        hint = f"enable it only when debugging: `set_detect_anomaly(args.debug)`; {FIGURES}"
        self._report(call, message, hint, fix, assumed or self._assumed(call))

    def _detect_anomaly(self, call: cst.Call) -> None:
        parent = self.model.tree.parent_of(call)
        if not isinstance(parent, cst.WithItem):
            return
        reason = self._with_reason(call, parent)
        if reason is None:
            return
        where, assumed = reason
        replacement, prepend = self._switched_off(call)
        fix = FixSpec(
            Applicability.UNSAFE,
            "Switch anomaly detection off (`detect_anomaly()` -> `set_detect_anomaly(False)`); "
            "delete the `with` if it is no longer wanted",
            ((call, replacement),),
            prepend=prepend,
        )
        message = f"`with detect_anomaly():` {where}, checking every backward in anomaly mode"
        hint = f"enable it only when debugging: `with torch.autograd.set_detect_anomaly(args.debug):`; {FIGURES}"
        self._report(call, message, hint, fix, assumed or self._assumed(call))

    def _trainer(self, call: cst.Call) -> None:
        arg = keyword_arg(call, "detect_anomaly")
        if arg is None or bool_constant(arg.value) is not True or self._guarded(call):
            return
        fix = FixSpec(
            Applicability.UNSAFE,
            "Switch anomaly detection off (`detect_anomaly=False`)",
            ((arg.value, cst.Name("False")),),
        )
        message = "`Trainer(detect_anomaly=True)` runs every training step in anomaly mode"
        hint = f"enable it only when debugging: `Trainer(detect_anomaly=args.debug)`; {FIGURES}"
        self._report(call, message, hint, fix, self._assumed(call))

    def _report(self, call: cst.Call, message: str, hint: str, fix: FixSpec, assumed: str | None) -> None:
        """Report; where the finding rests on an assumption, say it, offer no edit (switching anomaly
        mode off in code that runs only to debug undoes its point) and let a default run hide it."""
        if assumed is None:
            self.report(call, message, hint, fix=fix)
        else:
            self.report(call, message, f"{hint} (assumed: {assumed})", assumptions=[assumed])

    # -- when it is always on --------------------------------------------------------
    def _guarded(self, node: cst.CSTNode, seen: frozenset = frozenset()) -> bool:
        """Behind an `if` (not `if __name__ == "__main__":`), an `except`, a
        conditional expression, in a pytest function, or in a function that the file
        calls only so (`if args.debug: check_gradients(model)`), whatever its name?"""
        for anc in self.model.tree.ancestors(node):
            if isinstance(anc, cst.If) and not _is_main_guard(anc.test) and not self._of_libraries(anc.test):
                return True
            if isinstance(anc, (cst.ExceptHandler, cst.IfExp, cst.BooleanOperation, cst.Lambda)):
                return True
            if isinstance(anc, cst.FunctionDef):
                if anc.name.value.startswith("test"):  # what pytest collects
                    return True
                sites = self.model.call_sites().get(anc)
                if sites and anc not in seen:
                    return all(self._guarded(site, seen | {anc}) for site in sites)
        return False

    def _of_libraries(self, test: cst.BaseExpression) -> bool:
        """Does `test` ask only whether an import bound its names (`if pl is not None:` after a
        guarded import), the same on every run of one installation, no flag of the run?"""
        tree = self.model.tree
        if tree.descendants(test, cst.Call) or tree.descendants(test, cst.Attribute):
            return False  # `os.environ.get("DEBUG")`, `torch.cuda.is_available()`: read at run time
        names = set(names_in(test)) - {"None", "True", "False"}
        return bool(names) and names <= self.model.imports.aliases.keys()

    def _assumed(self, node: cst.CSTNode) -> str | None:
        """What the finding assumes where its function is named like a debugging helper and no code
        in sight calls it (so nothing shows whether it runs in every run or only to debug); None
        where its callers in the file decide, or its name says nothing."""
        for anc in self.model.tree.ancestors(node):
            if isinstance(anc, cst.FunctionDef):
                if self.model.call_sites().get(anc):
                    return None
                if _DEBUG_FUNCTION.search(anc.name.value):
                    return f"`{anc.name.value}()`, which no code in sight calls, runs in every run, not only to debug"
        return None

    def _with_reason(self, call: cst.Call, item: cst.WithItem) -> tuple[str, str | None] | None:
        """Why this `with` covers training, in words, and what that rests on where only a name shows
        it; None when it does not (or is guarded)."""
        if self._guarded(call):
            return None
        model = self.model
        with_node = model.tree.parent_of(item)
        body = with_node.body
        loops = model.loops
        for loop_type in (cst.For, cst.While):
            for loop in model.tree.descendants(body, loop_type):
                if loops.is_training_loop(loop):
                    return "wraps a training loop", None
        named = None
        for inner in model.tree.descendants(body, cst.Call):
            name = callee_name(inner) or ""
            callees = model.local_callees(inner)
            # a function of the project trains where its body shows it (in this file, or in another
            # file's summary where that has one), whatever its name, and a library's training method
            # (`pl.Trainer(...).fit(model)`); one whose body is out of sight is taken for training by
            # its name alone (`trainer.fit()`), an assumption
            facts = model.project.function(inner) if not callees else None
            if callees:
                trains = any(loops.steps_once(f) or self._trains(f) for f in callees)
            elif facts is not None:
                trains = bool(facts.get("trains"))
            else:
                trains = self._library_training(inner)
                if not trains and named is None and _TRAIN_CALL.search(name):
                    named = name
            if trains:
                return f"wraps the training call `{name}()`", None
        if named is not None:
            return f"wraps the training call `{named}()`", f"`{named}()`, defined out of sight, trains"
        context = step_context(model, call, lambda n, r: self._guarded(n))
        if context is None:
            return None
        region = context.region
        if isinstance(region, (cst.For, cst.While)) and not (
            loops.is_training_loop(region) or loops.has_backward(region)
        ):
            return None  # an evaluation loop: no backward to check
        if isinstance(region, cst.FunctionDef) and self.model.loops.eval_step_method(region):
            return None
        return f"runs on {context.where}", None

    def _library_training(self, call: cst.Call) -> bool:
        """Is `call` a library's method that trains (`Trainer.fit`), by its receiver's class?"""
        func = call.func
        if not isinstance(func, cst.Attribute):
            return False
        methods = TRAINING_METHODS.get(self.model.provenance.receiver_class(func.value, call), ())
        return func.attr.value in methods

    def _trains(self, func: cst.FunctionDef) -> bool:
        loops = self.model.loops
        return any(
            loops.is_training_loop(loop)
            for loop_type in (cst.For, cst.While)
            for loop in self.model.tree.descendants(func, loop_type)
        )

    def _switched_off(self, call: cst.Call) -> tuple[cst.Call, str]:
        """`set_detect_anomaly(False)` spelled with the names this file imports."""
        arg = cst.Arg(cst.Name("False"))
        func = call.func
        if isinstance(func, cst.Attribute):
            return cst.Call(func=func.with_changes(attr=cst.Name("set_detect_anomaly")), args=[arg]), ""
        aliases = self.model.imports.aliases
        for local, full in aliases.items():
            if full == "torch.autograd" and "." not in local:
                return cst.Call(func=cst.parse_expression(f"{local}.set_detect_anomaly"), args=[arg]), ""
        for local, full in aliases.items():
            if full == "torch" and "." not in local:
                return cst.Call(func=cst.parse_expression(f"{local}.autograd.set_detect_anomaly"), args=[arg]), ""
        return cst.Call(func=cst.parse_expression("torch.autograd.set_detect_anomaly"), args=[arg]), "import torch\n"


def _keywords(call: cst.Call) -> set[str]:
    return {a.keyword.value for a in call.args if a.keyword is not None}


def _is_trainer(qualified: str) -> bool:
    return qualified.endswith("Trainer") and qualified.split(".")[0] in _TRAINER_ROOTS


def _is_main_guard(test: cst.BaseExpression) -> bool:
    return (
        isinstance(test, cst.Comparison)
        and isinstance(test.left, cst.Name)
        and test.left.value == "__name__"
    )

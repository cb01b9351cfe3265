"""Code that runs on rank 0 only, and files that run under several processes.

Two shapes: a node inside `if rank == 0:` (`dist.get_rank() == 0`,
`accelerator.is_main_process`, `trainer.is_global_zero`, ...), or a node after
an early exit of the other ranks (`if rank != 0: return`) in its function.

What a value is decides, not its name: a rank is what `dist.get_rank()`, a
launcher's variable (`int(os.environ["RANK"])`), a library object's rank
attribute (`accelerator.process_index`, `trainer.global_rank`) or a function of
the file returning one makes, followed through names, `self`'s attributes, the
file's functions and what this file's callers hand a parameter. A test whose
value the file does not show (`args.rank == 0`, a parameter no caller fills) is
a rank test by its name alone (NAMED): the analyses that read it say what they
assume, or say only what holds either way.
"""

from __future__ import annotations

import builtins
import re
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.library import (
    FRAMEWORK_RANK_ZERO_FLAGS,
    LIGHTNING_MODULE_RANKS,
    PROCESS_STARTERS,
    RANK_ATTRIBUTES,
    RANK_FUNCTIONS,
    RANK_VARIABLES,
    RANK_ZERO_FLAGS,
)
from memlint.analysis.syntax.expressions import call_arg, code
from memlint.analysis.syntax.scopes import exits

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

FACT = "fact"  # a rank test by what the value is
NAMED = "named"  # a rank test by the name of a value the file does not show
# What the names of ranks look like, for values the file does not show (`args.local_rank`, `self.rank`
# set from a parameter no caller fills): `group.rank()` is the process's rank in a process group.
_RANK = re.compile(r"(^|\.)(rank|global_rank|process_index|rank\(\)|get_rank\(\)|get_global_rank\(\))$")
_LOCAL_RANK = re.compile(r"(^|\.)(local_rank|local_process_index|get_local_rank\(\))$")
_MAIN_FLAG = re.compile(r"(^|\.)(is_main_process|is_global_zero|is_rank_zero|is_master|is_world_process_zero)(\(\))?$")
_DEPTH = 4  # names, attributes and returns followed from a value to what makes it


# Calls that only a program of several processes makes (prefixes of resolved names).
MULTI_PROCESS_CALLS = (
    "torch.distributed.", "torch.nn.parallel.DistributedDataParallel", "torch.multiprocessing.spawn",
    "torch.multiprocessing.start_processes", "deepspeed.initialize", "deepspeed.init_distributed", "horovod.torch.init",
)
# Environment variables that the launchers (torchrun, accelerate, deepspeed, SLURM) set per process.
_LAUNCHER_VARIABLES = frozenset({*RANK_VARIABLES, "WORLD_SIZE", "LOCAL_WORLD_SIZE"})


def runs_in_several_processes(model: "SemanticModel") -> bool:
    """Does the file show that it runs as one of several processes: a distributed call, a
    launcher's rank variable read, or a test of a value that is the process's rank?"""
    tree = model.tree
    for call in tree.by_type.get(cst.Call, ()):
        if (model.imports.resolve(call.func) or "").startswith(MULTI_PROCESS_CALLS):
            return True
    for string in tree.by_type.get(cst.SimpleString, ()):
        if string.value.strip("\"'") in _LAUNCHER_VARIABLES:
            return True
    return any(
        _rank_zero(model, branch.test) == FACT or _not_rank_zero(model, branch.test) == FACT
        for branch in tree.by_type.get(cst.If, ())
    )


def runs_before_spawning(model: "SemanticModel", node: cst.CSTNode) -> bool:
    """Does `node` run in the one parent process, before it starts its workers: its function calls
    `torch.multiprocessing.spawn` (`PROCESS_STARTERS`) after it, handing over another function, and
    takes no distributed step before it? The workers run only what they are handed."""
    tree = model.tree
    scope = model.scope_of(node)
    if not isinstance(scope, cst.FunctionDef):
        return False  # a module's code outside `if __name__ == "__main__":` runs again in each worker
    for call in tree.descendants(scope, cst.Call):
        resolved = model.imports.resolve(call.func) or ""
        if resolved.startswith("torch.distributed.") and not tree.is_after(call, node):
            return False
        started = call_arg(call, PROCESS_STARTERS[resolved], "fn") if resolved in PROCESS_STARTERS else None
        if started is not None and tree.is_after(call, node) and code(started.value) != scope.name.value:
            return True
    return False


def names_a_rank(model: "SemanticModel", expr: cst.BaseExpression) -> bool:
    """Is `expr` this process's rank (`dist.get_rank()`, `accelerator.process_index`, a name bound to
    one), or, where the file does not show its value, named like one (`args.local_rank`)? A file
    named after it is each rank's own either way, or may be: what is said of it must hold in both cases."""
    return rank_value(model, expr, expr) is not None or bool(_RANK.search(code(expr)) or _LOCAL_RANK.search(code(expr)))


def runs_on_rank_zero_only(model: "SemanticModel", node: cst.CSTNode) -> tuple[str, cst.BaseExpression] | None:
    """Does `node` run only on rank 0 (of all processes, not of each machine)? (FACT or NAMED, the
    test that says so), or None."""
    tree = model.tree
    child = node
    for anc in tree.ancestors(node):
        if isinstance(anc, cst.If) and child is anc.body and (kind := _rank_zero(model, anc.test)):
            return kind, anc.test
        if isinstance(anc, (cst.IndentedBlock, cst.Module)) and (left := _other_ranks_left_before(model, anc, child)):
            return left
        if isinstance(anc, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return None
        child = anc
    return None


def _other_ranks_left_before(
    model: "SemanticModel", block: cst.IndentedBlock | cst.Module, stmt: cst.CSTNode
) -> tuple[str, cst.BaseExpression] | None:
    """`if rank != 0: return` (or raise) earlier in `block`."""
    for earlier in block.body:
        if earlier is stmt:
            return None
        if isinstance(earlier, cst.If) and earlier.orelse is None and exits(earlier):
            kind = _not_rank_zero(model, earlier.test)
            if kind:
                return kind, earlier.test
    return None


def _rank_zero(model: "SemanticModel", test: cst.BaseExpression) -> str | None:
    if isinstance(test, cst.BooleanOperation) and isinstance(test.operator, cst.And):
        # `resume and dist.get_rank() == 0`: true on rank 0 at most
        kinds = {_rank_zero(model, test.left), _rank_zero(model, test.right)}
        return FACT if FACT in kinds else NAMED if NAMED in kinds else None
    flag = _main_flag(model, test)
    return flag or _compares_rank(model, test, (cst.Equal, cst.Is))


def _not_rank_zero(model: "SemanticModel", test: cst.BaseExpression) -> str | None:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return _main_flag(model, test.expression)
    compared = _compares_rank(model, test, (cst.NotEqual, cst.IsNot))
    if compared:
        return compared
    if (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.GreaterThan)
        and code(test.comparisons[0].comparator) == "0"
    ):
        return _rank(model, test.left)
    return None


def _compares_rank(model: "SemanticModel", test: cst.BaseExpression, operators: tuple[type, ...]) -> str | None:
    """`rank == 0`, `0 == dist.get_rank()`, `self.global_rank != 0` for the given operators."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    comparison = test.comparisons[0]
    if not isinstance(comparison.operator, operators):
        return None
    if code(comparison.comparator) == "0":
        return _rank(model, test.left)
    if code(test.left) == "0":
        return _rank(model, comparison.comparator)
    return None


def _rank(model: "SemanticModel", expr: cst.BaseExpression) -> str | None:
    """FACT where `expr` is this process's global rank by what makes it; NAMED where the file does not
    show what makes it and its name is a rank's; else None."""
    value = rank_value(model, expr, expr)
    if value is not None:
        return FACT if value == "global" else None
    return NAMED if _RANK.search(code(expr)) and not _shown(model, expr) else None


def _main_flag(model: "SemanticModel", expr: cst.BaseExpression) -> str | None:
    """FACT where `expr` is true on rank 0 alone by what makes it (`accelerator.is_main_process`, a
    function of the file returning `dist.get_rank() == 0`); NAMED where only its name says so."""
    if _is_main_flag(model, expr, 0):
        return FACT
    return NAMED if _MAIN_FLAG.search(code(expr)) and not _shown(model, expr) else None


def _is_main_flag(model: "SemanticModel", expr: cst.BaseExpression, depth: int) -> bool:
    if depth > _DEPTH:
        return False
    if isinstance(expr, cst.Comparison):  # `leader = dist.get_rank() == 0`
        return _compares_rank(model, expr, (cst.Equal, cst.Is)) == FACT
    target = expr.func if isinstance(expr, cst.Call) and not expr.args else expr
    if isinstance(target, cst.Attribute):
        flag = target.attr.value
        receiver = target.value
        cls = model.provenance.receiver_class(receiver, expr)
        if flag in RANK_ZERO_FLAGS.get(cls, ()):
            return True
        if _lightning_trainer(model, receiver, expr) and flag == "is_global_zero":
            return True
        if code(receiver) == "self" and flag in FRAMEWORK_RANK_ZERO_FLAGS.get(_framework(model, expr) or "", ()):
            return True
    if isinstance(expr, cst.Call):
        callees = model.local_callees(expr)
        returns = [r.value for f in callees for r in model.tree.descendants(f.body, cst.Return) if model.scope_of(r) is f]
        return bool(returns) and all(r is not None and _rank_zero(model, r) == FACT for r in returns)
    if isinstance(expr, cst.Name):
        values = _values(model, expr, expr)
        return bool(values) and all(v is not None and _is_main_flag(model, v, depth + 1) for v in values)
    return False


def rank_value(model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> str | None:
    """"global" or "local" where what makes `expr`'s value at `at` is the process's rank (among all
    processes, among those of its machine), as the library table and the file's code show; else None."""
    if depth > _DEPTH:
        return None
    if isinstance(expr, cst.Call):
        resolved = model.imports.resolve(expr.func) or ""
        if resolved in RANK_FUNCTIONS:
            return RANK_FUNCTIONS[resolved]
        if resolved in ("int", "str") and expr.args:
            return rank_value(model, expr.args[0].value, at, depth + 1)
        if resolved in ("os.environ.get", "os.getenv"):
            return _variable(call_arg(expr, 0, "key"))
        callees = model.local_callees(expr)
        returns = [r.value for f in callees for r in model.tree.descendants(f.body, cst.Return) if model.scope_of(r) is f]
        return _all_rank(model, returns, depth)
    if isinstance(expr, cst.Subscript) and model.imports.resolve(expr.value) == "os.environ" and len(expr.slice) == 1:
        index = expr.slice[0].slice
        return _variable(index) if isinstance(index, cst.Index) else None
    if isinstance(expr, cst.IfExp):
        return _all_rank(model, [expr.body, expr.orelse], depth)
    if isinstance(expr, cst.Attribute):
        attr, receiver = expr.attr.value, expr.value
        known = RANK_ATTRIBUTES.get(model.provenance.receiver_class(receiver, at), {}).get(attr)
        if known is not None:
            return known
        if attr in LIGHTNING_MODULE_RANKS and (
            (code(receiver) == "self" and _framework(model, at) == "lightning") or _lightning_trainer(model, receiver, at)
        ):
            return LIGHTNING_MODULE_RANKS[attr]
        if code(receiver) == "self":
            return _all_rank(model, model.provenance.self_attribute_values(attr, at), depth)
        return None
    if isinstance(expr, cst.Name):
        return _all_rank(model, _values(model, expr, at), depth)
    return None


def _all_rank(model: "SemanticModel", values: list, depth: int) -> str | None:
    """The rank all `values` are ("global", "local"), 0 standing for either (`else 0`); None where
    one is none, or nothing is known."""
    kinds = {
        "zero" if isinstance(v, cst.Integer) and v.value == "0" else (rank_value(model, v, v, depth + 1) if v is not None else None)
        for v in values
    }
    kinds.discard("zero")
    return kinds.pop() if len(kinds) == 1 and None not in kinds else None


def _values(model: "SemanticModel", name: cst.Name, at: cst.CSTNode) -> list:
    """What may make the value `name` holds at `at`: its reaching assignments, or for a parameter
    what this file's callers hand it ([] where something is out of sight: a caller, a binding)."""
    scope = model.scope_of(at)
    if isinstance(scope, cst.FunctionDef) and name.value in model.params(scope):
        return model.handed.handed_values(scope, name.value)
    bindings = model.provenance.reaching_bindings(scope, name.value, at) or model.bindings(model.module, name.value)
    return [b.value for b in bindings]


def _shown(model: "SemanticModel", expr: cst.BaseExpression) -> bool:
    """Does the file show every value that makes `expr` (a name bound, or a parameter every caller of
    the file fills, only to values that are no rank; `self.<attr>` assigned only so)? Then its
    name says nothing."""
    if isinstance(expr, cst.Call):
        return bool(model.local_callees(expr))
    if isinstance(expr, cst.Attribute) and code(expr.value) == "self":
        values = model.provenance.self_attribute_values(expr.attr.value, expr)
    elif isinstance(expr, cst.Name):
        values = _values(model, expr, expr)
    else:
        return False
    return bool(values) and all(v is not None and _closed(model, v) for v in values)


def _closed(model: "SemanticModel", value: cst.BaseExpression) -> bool:
    """A value the file shows in full: a literal, or a call of a library function or class, or of
    Python's (`enumerate(paths)`: a loop's counter)."""
    if isinstance(value, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(value, cst.Call) and not model.local_callees(value):
        root = value.func
        while isinstance(root, cst.Attribute):
            root = root.value
        if not isinstance(root, cst.Name):
            return False
        return root.value in model.imports.aliases or (
            hasattr(builtins, root.value) and not model.bindings(model.module, root.value)
        )
    return False


def _variable(key: cst.BaseExpression | cst.Arg | cst.Index | None) -> str | None:
    """The rank a launcher's variable holds, for `key` naming one."""
    value = getattr(key, "value", None)
    return RANK_VARIABLES.get(value.evaluated_value) if isinstance(value, cst.SimpleString) else None


def _framework(model: "SemanticModel", at: cst.CSTNode) -> str | None:
    scope = model.scope_of(at)
    cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
    return model.frameworks.framework_of(cls) if cls is not None else None


def _lightning_trainer(model: "SemanticModel", receiver: cst.BaseExpression, at: cst.CSTNode) -> bool:
    """`self.trainer` of a LightningModule (or of a Lightning callback's `trainer` parameter)."""
    return code(receiver) == "self.trainer" and _framework(model, at) == "lightning"

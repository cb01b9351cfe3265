"""Code that runs on rank 0 only, and files that run under several processes.

Two shapes: a node inside `if rank == 0:` (`dist.get_rank() == 0`,
`accelerator.is_main_process`, `trainer.is_global_zero`, ...), or a node after
an early exit of the other ranks (`if rank != 0: return`) in its function.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import code

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

# `group.rank()`: the process's rank in a process group (`self.data_parallel_group.rank() == 0`)
_RANK = re.compile(r"(^|\.)(rank|global_rank|process_index|rank\(\)|get_rank\(\)|get_global_rank\(\))$")
_LOCAL_RANK = re.compile(r"(^|\.)(local_rank|local_process_index|get_local_rank\(\))$")
_MAIN_FLAG = re.compile(r"(^|\.)(is_main_process|is_global_zero|is_rank_zero|is_master|is_world_process_zero)(\(\))?$")


# Calls that only a program of several processes makes (prefixes of resolved names).
MULTI_PROCESS_CALLS = (
    "torch.distributed.", "torch.nn.parallel.DistributedDataParallel", "torch.multiprocessing.spawn",
    "torch.multiprocessing.start_processes", "deepspeed.initialize", "deepspeed.init_distributed",
)
# Environment variables that the launchers (torchrun, accelerate, deepspeed, SLURM) set per process.
RANK_VARIABLES = frozenset({"RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "SLURM_PROCID"})


def runs_in_several_processes(model: "FileContext") -> bool:
    """Does the file show that it runs as one of several processes: a distributed call, a
    launcher's rank variable read, or a test of the rank?"""
    tree = model.tree
    for call in tree.by_type.get(cst.Call, ()):
        if (model.imports.resolve(call.func) or "").startswith(MULTI_PROCESS_CALLS):
            return True
    for string in tree.by_type.get(cst.SimpleString, ()):
        if string.value.strip("\"'") in RANK_VARIABLES:
            return True
    return any(_is_rank_zero(branch.test) or _is_not_rank_zero(branch.test) for branch in tree.by_type.get(cst.If, ()))


def names_a_rank(expr: cst.BaseExpression) -> bool:
    """Is `expr` a rank of this process (`self.rank`, `accelerator.process_index`, `dist.get_rank()`, `local_rank`)?"""
    return bool(_RANK.search(code(expr)) or _LOCAL_RANK.search(code(expr)))


def runs_on_rank_zero_only(model: "FileContext", node: cst.CSTNode) -> bool:
    """Does `node` run only on rank 0 (of all processes, not of each machine)?"""
    tree = model.tree
    child = node
    for anc in tree.ancestors(node):
        if isinstance(anc, cst.If) and child is anc.body and _is_rank_zero(anc.test):
            return True
        if isinstance(anc, (cst.IndentedBlock, cst.Module)) and _other_ranks_left_before(anc, child):
            return True
        if isinstance(anc, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            return False
        child = anc
    return False


def _other_ranks_left_before(block: cst.IndentedBlock | cst.Module, stmt: cst.CSTNode) -> bool:
    """`if rank != 0: return` (or raise) earlier in `block`."""
    for earlier in block.body:
        if earlier is stmt:
            return False
        if isinstance(earlier, cst.If) and earlier.orelse is None and _is_not_rank_zero(earlier.test) and _exits(earlier):
            return True
    return False


def _exits(branch: cst.If) -> bool:
    body = branch.body.body if isinstance(branch.body, cst.IndentedBlock) else [branch.body]
    last = body[-1] if body else None
    smalls = last.body if isinstance(last, cst.SimpleStatementLine) else [last]
    return any(isinstance(s, (cst.Return, cst.Raise)) for s in smalls)


def _is_rank_zero(test: cst.BaseExpression) -> bool:
    if _MAIN_FLAG.search(code(test)):
        return True
    return _compares_rank(test, (cst.Equal, cst.Is))


def _is_not_rank_zero(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        return bool(_MAIN_FLAG.search(code(test.expression)))
    return _compares_rank(test, (cst.NotEqual, cst.IsNot)) or (
        isinstance(test, cst.Comparison)
        and len(test.comparisons) == 1
        and isinstance(test.comparisons[0].operator, cst.GreaterThan)
        and _RANK.search(code(test.left)) is not None
        and code(test.comparisons[0].comparator) == "0"
    )


def _compares_rank(test: cst.BaseExpression, operators: tuple[type, ...]) -> bool:
    """`rank == 0`, `0 == dist.get_rank()`, `self.global_rank != 0` for the given operators."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    comparison = test.comparisons[0]
    if not isinstance(comparison.operator, operators):
        return False
    left, right = code(test.left), code(comparison.comparator)
    return (right == "0" and bool(_RANK.search(left))) or (left == "0" and bool(_RANK.search(right)))

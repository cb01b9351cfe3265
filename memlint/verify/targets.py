"""Which loop proves which finding: map each ML001–ML006 finding to the loop
whose iterations should show the memory growth it predicts.

* the innermost loop enclosing the finding's node (ML001, ML005, ML006);
* ML002 (the autocast call): the first loop inside the `with` region (or the
  decorated function's body);
* ML003: the innermost loop around the model call, inside the evaluation
  function or loop;
* a node in a function without a loop around it: the innermost loop around a
  call of that function in this file (a per-step `train_step` called from the
  training loop), up to three calls deep.

The speed rules are timed rather than measured (`speed_loop_for`): ML004, the
innermost loop around the `empty_cache()` call (or around a call of the
function it is in); ML009, the training loop inside the `with` (or inside a
function called there), else the loop around the call, else, for anomaly
mode switched on for the whole run, the file's first innermost loop that runs
backward. ML007 shows its memory through ML001 and is not probed. Loops are named by their ordinal: the index of the `for`/`while` in
source order, which survives memlint's fixes (they add no loop and remove
none), so the same loop can be probed again in the fixed source.
"""

from __future__ import annotations

from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from memlint.analysis import SemanticModel
from memlint.models import Finding

PROBED_CODES = ("ML001", "ML002", "ML003", "ML005", "ML006")
SPEED_CODES = ("ML004", "ML009")
Loop = cst.For | cst.While


@dataclass(frozen=True)
class LoopInfo:
    ordinal: int
    row: int  # 1-based line of the `for`/`while` keyword
    column: int  # 1-based
    end_row: int
    kind: str  # "for" or "while"
    header: str  # the loop's first line, for display


@dataclass
class Parsed:
    text: str
    module: cst.Module
    model: SemanticModel
    loops: list[Loop]  # every for/while, in source order; index = ordinal
    infos: list[LoopInfo]
    positions: object  # node -> CodeRange

    def ordinal(self, loop: cst.CSTNode) -> int:
        for index, candidate in enumerate(self.loops):
            if candidate is loop:
                return index
        raise KeyError(loop)


def parse(text: str, path: str = "<memory>") -> Parsed:
    module = cst.parse_module(text)
    model = SemanticModel(module, path)
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    loops = sorted(
        [*model.tree.by_type.get(cst.For, ()), *model.tree.by_type.get(cst.While, ())],
        key=lambda n: model.tree.order[id(n)],
    )
    lines = text.splitlines()
    infos = []
    for index, loop in enumerate(loops):
        where = positions[loop]
        row = where.start.line
        header = lines[row - 1].strip() if row - 1 < len(lines) else ""
        kind = "for" if isinstance(loop, cst.For) else "while"
        infos.append(LoopInfo(index, row, where.start.column + 1, where.end.line, kind, header))
    return Parsed(text, module, model, loops, infos, positions)


def probeable(loop: cst.CSTNode) -> bool:
    return not (isinstance(loop, cst.For) and loop.asynchronous is not None)


def _node_at(parsed: Parsed, finding: Finding) -> cst.CSTNode | None:
    """The node a finding was reported on: same start and end position."""
    start = (finding.location.row, finding.location.column - 1)
    end = (finding.end_location.row, finding.end_location.column - 1)
    preferred = (cst.Call, cst.Expr, cst.Assign, cst.AugAssign, cst.AnnAssign, cst.For, cst.While)
    fallback = None
    for node_type in preferred:
        for node in parsed.model.tree.by_type.get(node_type, ()):
            where = parsed.positions.get(node)
            if where is None:
                continue
            if (where.start.line, where.start.column) == start and (where.end.line, where.end.column) == end:
                return node
            if fallback is None and (where.start.line, where.start.column) == start:
                fallback = node
    return fallback


def _innermost_loop(parsed: Parsed, node: cst.CSTNode, depth: int = 0) -> Loop | None:
    model = parsed.model
    loops = [l for l in model.enclosing_loops(node) if probeable(l)]
    if loops:
        return loops[0]
    if depth >= 3:
        return None
    scope = model.scope_of(node)
    if not isinstance(scope, cst.FunctionDef):
        return None
    for call in model.call_sites().get(scope, []):
        loop = _innermost_loop(parsed, call, depth + 1)
        if loop is not None:
            return loop
    return None


def _first_loop_in(parsed: Parsed, region: cst.CSTNode) -> Loop | None:
    tree = parsed.model.tree
    for loop in parsed.loops:
        if tree.contains(region, loop) and probeable(loop):
            return loop
    return None


def _autocast_region(parsed: Parsed, call: cst.CSTNode) -> cst.CSTNode | None:
    tree = parsed.model.tree
    for parent in tree.ancestors(call):
        if isinstance(parent, cst.WithItem):
            return tree.parent_of(parent).body
        if isinstance(parent, cst.Decorator):
            return tree.parent_of(parent).body
        if isinstance(parent, cst.Assign):
            target = parent.targets[0].target
            if isinstance(target, cst.Name):
                scope = parsed.model.scope_of(call)
                for item in tree.descendants(scope, cst.WithItem):
                    if isinstance(item.item, cst.Name) and item.item.value == target.value:
                        return tree.parent_of(item).body
            return None
        if isinstance(parent, (cst.BaseStatement, cst.BaseSmallStatement)):
            return None
    return None


def loop_for(parsed: Parsed, finding: Finding) -> tuple[Loop | None, str]:
    """The loop to probe for `finding`, or None and why not."""
    if finding.code not in PROBED_CODES:
        return None, f"{finding.code} is not a memory-growth rule"
    node = _node_at(parsed, finding)
    if node is None:
        return None, "the finding's node was not found"
    if finding.code == "ML002" and isinstance(node, (cst.For, cst.While)) and probeable(node):
        return node, ""  # the loop itself, inside a framework's autocast (Lightning's bf16-mixed)
    if finding.code == "ML002":
        region = _autocast_region(parsed, node)
        if region is not None:
            loop = _first_loop_in(parsed, region)
            if loop is not None:
                return loop, ""
    loop = _innermost_loop(parsed, node)
    if loop is None:
        return None, "no loop of this file runs it (a framework hook?)"
    return loop, ""


def function_for(parsed: Parsed, finding: Finding) -> cst.FunctionDef | None:
    """The function to probe per call for a finding no loop of its file runs (a framework
    hook, or a function called from elsewhere): the innermost `def` around it."""
    node = _node_at(parsed, finding)
    if node is None:
        return None
    scope = parsed.model.scope_of(node)
    return scope if isinstance(scope, cst.FunctionDef) else None


def function_info(parsed: Parsed, func: cst.FunctionDef) -> LoopInfo:
    """A function probed per call, described as a site (kind "call", its `def` line)."""
    start = parsed.positions[func.name].start.line
    end = parsed.positions[func].end.line
    lines = parsed.text.splitlines()
    header = lines[start - 1].strip() if start - 1 < len(lines) else ""
    return LoopInfo(-1, start, parsed.positions[func].start.column + 1, end, "call", header)


def _runs_model(parsed: Parsed, loop: Loop) -> bool:
    model = parsed.model
    if model.provenance.backward_calls(loop.body):
        return True
    return any(
        model.provenance.is_module_call(call) or model.local_callees(call)
        for call in model.tree.descendants(loop.body, cst.Call)
    )


def leaf_loops(parsed: Parsed) -> list[Loop]:
    """What a test case without findings probes: the innermost loops that run
    a model, backward or a function of the file (not the loop that builds the
    layers or the generator that makes the batches); every innermost loop
    when none does."""
    tree = parsed.model.tree
    loops = [l for l in parsed.loops if probeable(l)]
    candidates = [l for l in loops if _runs_model(parsed, l)] or loops
    return [l for l in candidates if not any(o is not l and tree.contains(l, o) for o in candidates)]


def _step_loops(parsed: Parsed, region: cst.CSTNode, depth: int = 0) -> list[Loop]:
    """The innermost loops in `region` that run backward (or train), in source
    order; looked for in the functions of this file that `region` calls when
    it holds none (up to three calls deep)."""
    model = parsed.model
    tree = model.tree
    found = [
        l for l in parsed.loops
        if tree.contains(region, l) and probeable(l) and (model.loops.has_backward(l) or model.loops.is_training_loop(l))
    ]
    found = [l for l in found if not any(o is not l and tree.contains(l, o) for o in found)]
    if found or depth >= 3:
        return found
    for call in tree.descendants(region, cst.Call):
        for func in model.local_callees(call):
            if func is region:
                continue
            inner = _step_loops(parsed, func, depth + 1)
            if inner:
                return inner
    return []


def speed_loop_for(parsed: Parsed, finding: Finding) -> tuple[Loop | None, str]:
    """The loop whose step time shows the slowdown `finding` predicts, or None and why not."""
    if finding.code not in SPEED_CODES:
        return None, f"{finding.code} is not a speed rule"
    node = _node_at(parsed, finding)
    if node is None:
        return None, "the finding's node was not found"
    tree = parsed.model.tree
    if finding.code == "ML009":
        parent = tree.parent_of(node)
        if isinstance(parent, cst.WithItem):
            loops = _step_loops(parsed, tree.parent_of(parent).body)
            if loops:
                return loops[0], ""
    loop = _innermost_loop(parsed, node)
    if loop is not None:
        return loop, ""
    if finding.code == "ML009" and not isinstance(tree.parent_of(node), cst.WithItem):
        loops = _step_loops(parsed, parsed.module)  # switched on for the whole run
        if loops:
            return loops[0], ""
    return None, "no loop of this file runs it (a framework's training loop?)"


def store_container(parsed: Parsed, finding: Finding) -> cst.BaseExpression | None:
    """What a finding's store keeps, to measure at the store (ML001, ML005): the container
    of `losses.append(x)`, `meter.update(x)`, `d[k] = x`, or the new value of
    `t = torch.cat([t, x])`; None for a finding that names no store (an accumulator
    `total += x` is rebound, not kept)."""
    if finding.code not in ("ML001", "ML005"):
        return None
    node = _node_at(parsed, finding)
    if node is None:
        return None
    statement = parsed.model.tree.statement_of(node)
    store = parsed.model.loops.store_of(statement)
    if store is None:
        return None
    if isinstance(statement, cst.AugAssign):
        return None  # `xs += [x]`: the container is the target, no call can stand there
    if store.kind in ("append", "update", "subscript"):
        return store.container
    if store.kind == "concat" and isinstance(statement, cst.Assign):
        return statement.value
    return None

"""How much of a corpus a sound statement-level screen could spare LibCST (issue 19).

    python benchmarks/screen_potential.py [DIR ...]    # default: the corpus of bench.py

memlint/screen.py spares LibCST only whole files whose rules' needles are in comments and
docstrings. This script measures the bolder screen the issue proposes -- parse with LibCST
only the top-level functions, classes and methods that can matter, blanking the rest -- with
the conservative definition of "can matter" such a screen needs to keep every finding:

* a unit (a top-level function, a class header, a method) holds a construct a rule or the
  project summary starts from: any rule's needle as code (a name, attribute, string, loop,
  store...), a framework hook name, a loss-named function or an `update` method (the flow
  facts other files read), a top-level function whose returns or kept arguments the summary
  exports, an import or a `global`, a call run at import time in a file that uses CUDA;
* or it is linked to such a unit by a name one defines and the other refers to (in-file
  facts -- callees' summaries, call sites, grad mode on entry, `self.<attr>` -- travel by name).

It prints, per corpus, the lines of definitions, those holding a trigger, those needed once
linked, and the triggers that hold the most lines. On lightning 2.6.6 + torchtune 0.6.1: 83k
of 113k lines are in definitions, 74k hold a trigger, 81k are needed once linked, 1.6% of all
lines could be blanked (transformers 5.23.0: 1.1%, diffusers 0.42.1: 3.1%). The rules' needles
are everywhere in training code: such a screen pays only with per-unit triggers as precise as
the rules themselves and links resolved through scopes, not shared names.
"""

from __future__ import annotations

import argparse
import ast
import collections
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from memlint.analysis.facts.cuda_init import ALLOC_VARIABLES
from memlint.analysis.regions.frameworks import PER_STEP_NAMES
from memlint.analysis.project import SUMMARY_NEEDLES
from memlint.engine import decode
from memlint.screen import CONSTRUCT_KINDS, CONSTRUCT_NEEDLES, construct_needles

# Words the rules and analyses start from beyond the rules' needles: framework hooks named
# without a needle in them (`on_after_backward`, `on_evaluate`), the flow facts other files ask
# for (`update` of a meter, functions named like a loss), the OOM handlers.
_EXTRA_WORDS = ("backward", "zero_grad", "_step", "_batch", "evaluate", "infer", "loss", "Loss", "criterion", "Criterion", "hook")
# Names of functions whose flow facts other files read (a meter's `update`, a loss) or whose
# calls they read: a definition with such a name in it is needed.
_DEFINITION_WORDS = ("update", "loss", "Loss", "criterion", "Criterion")

# A needle that is not part of a word stands for a construct (memlint/screen.py's construct
# needles): the marker a statement holding that construct gets.
_DEFINITION = "def"  # a definition named in _DEFINITION_WORDS

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[frozenset[str], tuple[str, ...]]:
    """(markers, words): every rule's needles and the summary's, split into constructs and words."""
    from memlint.rules import ALL_RULES

    needles = {n for rule in ALL_RULES for group in rule.needles for n in group}
    needles |= set(SUMMARY_NEEDLES) | set(ALLOC_VARIABLES) | set(PER_STEP_NAMES) | set(_EXTRA_WORDS)
    markers = frozenset(n for n in needles if n in CONSTRUCT_NEEDLES) | {_DEFINITION}
    words = tuple(sorted(n for n in needles if n not in CONSTRUCT_NEEDLES))
    return markers, words


class _Unit:
    """A function, a class header (decorators, bases and the statements of its body that are
    not definitions) or a method: what the screen keeps or blanks as one."""

    __slots__ = ("node", "first", "last", "words", "markers", "defines", "refers", "imports", "needed", "owner", "members")

    def __init__(self, node: ast.stmt, owner: "_Unit | None" = None) -> None:
        self.node = node
        decorators = getattr(node, "decorator_list", ())
        self.first = min([node.lineno, *(d.lineno for d in decorators)])
        self.last = node.end_lineno or node.lineno
        self.words: set[str] = set()
        self.markers: set[str] = set()
        self.defines: set[str] = set()
        self.refers: set[str] = set()
        self.imports = False
        self.needed = False
        self.owner = owner  # the class header of a method
        self.members: list[_Unit] = []  # a class header's methods (and nested classes)


def _dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _collect(unit: _Unit, roots: list[ast.AST]) -> None:
    """Fill `unit`'s words, markers, names defined and referred to, in one walk of `roots`."""
    words, markers, defines, refers = unit.words, unit.markers, unit.defines, unit.refers
    # (node, inside a function body): a name stored outside functions binds a module or class attribute
    stack: list[tuple[ast.AST, bool]] = [(root, False) for root in roots]
    while stack:
        node, in_function = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            words.add(node.id)
            refers.add(node.id)
            if not in_function and type(node.ctx) is ast.Store:
                defines.add(node.id)
            continue
        if kind is ast.Attribute:
            words.add(node.attr)
            refers.add(node.attr)
            dotted = _dotted(node)
            if dotted:
                words.add(dotted)
            if type(node.ctx) is ast.Store:
                defines.add(node.attr)
        elif kind is ast.Constant:
            if isinstance(node.value, str):
                words.add(node.value)
            continue
        elif kind in _DEFINITIONS:
            words.add(node.name)
            defines.add(node.name)
            if any(word in node.name for word in _DEFINITION_WORDS):
                markers.add(_DEFINITION)
            body = node.body[1:] if node.body and _is_docstring(node.body[0]) else node.body
            inner = in_function or kind is not ast.ClassDef
            stack.extend((child, inner) for child in body)
            inside = set(map(id, node.body))
            for child in ast.iter_child_nodes(node):
                if id(child) not in inside:  # decorators, bases, defaults, annotations: evaluated outside
                    stack.append((child, in_function))
            continue
        elif kind is ast.Lambda:
            in_function = True
        elif kind is ast.arg:
            words.add(node.arg)
        elif kind is ast.keyword:
            if node.arg:
                words.add(node.arg)
        elif kind in (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal):
            unit.imports = True
        elif kind in CONSTRUCT_KINDS:
            markers.update(construct_needles(node))
        elif kind is ast.Expr and type(node.value) is ast.Constant:
            continue  # a docstring or a bare string: no rule reads it
        stack.extend((child, in_function) for child in ast.iter_child_nodes(node))


def _triggers(unit: _Unit, words: tuple[str, ...], markers: frozenset[str], cuda_file: bool) -> bool:
    """Does `unit` hold something a rule or the summary starts from?"""
    if unit.imports or unit.markers & markers:
        return True
    held = "\0".join(unit.words)  # one string: a needle is never split by the separator
    if any(word in held for word in words):
        return True
    node = unit.node
    if unit.owner is None and isinstance(node, _FUNCTIONS) and _exports(node):
        return True
    return cuda_file and _calls_outside_functions(node)


def _exports(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A top-level function whose summary entry other files may read: what its returns are made
    of (calls it returns the results of), which arguments it keeps beyond the call."""
    has_params = bool(func.args.args or func.args.posonlyargs or func.args.kwonlyargs)
    for node in ast.walk(func):
        kind = type(node)
        if kind is ast.Return and node.value is not None:
            return True
        if has_params and kind in (ast.AugAssign, ast.Expr, ast.Assign, ast.AnnAssign):
            return True
    return False


def _calls_outside_functions(node: ast.stmt) -> bool:
    """Does a function or class run a call when the module runs (a decorator, a default value,
    a class body), which comes after CUDA in a file that uses it?"""
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Call):
            return True
        if isinstance(current, _FUNCTIONS):
            stack.extend(current.decorator_list)
            stack.extend(d for d in [*current.args.defaults, *current.args.kw_defaults] if d is not None)
            continue
        if isinstance(current, ast.Lambda):
            continue
        stack.extend(ast.iter_child_nodes(current))
    return False


def _units(module: ast.Module) -> tuple[list[_Unit], list[_Unit]]:
    """(the units, the top-level ones): a top-level function or class is one unit; the
    methods and nested classes of a top-level class are units of their own."""
    units: list[_Unit] = []
    top: list[_Unit] = []
    for node in module.body:
        unit = _Unit(node)
        units.append(unit)
        top.append(unit)
        if not isinstance(node, ast.ClassDef):
            _collect(unit, [node])
            continue
        # the header: the class statement without its definitions
        roots: list[ast.AST] = [*node.decorator_list, *node.bases, *node.keywords]
        body = node.body[1:] if node.body and _is_docstring(node.body[0]) else node.body
        for child in body:
            if isinstance(child, _DEFINITIONS):
                member = _Unit(child, unit)
                _collect(member, [child])
                unit.members.append(member)
                units.append(member)
            else:
                roots.append(child)
        unit.words.add(node.name)
        unit.defines.add(node.name)
        if any(word in node.name for word in _DEFINITION_WORDS):
            unit.markers.add(_DEFINITION)
        _collect(unit, roots)
    return units, top



def _link(units: list[_Unit], needed: list[_Unit]) -> None:
    """Mark needed every unit that defines a name a needed one refers to, or refers to a name
    a needed one defines, until nothing changes; with a method its class, and with a class
    its special methods (`Foo()` runs `__init__`, `foo(x)` its `__call__`)."""
    defined_by: dict[str, list[_Unit]] = {}
    referred_by: dict[str, list[_Unit]] = {}
    for unit in units:
        for name in unit.defines:
            if not _is_dunder(name):
                defined_by.setdefault(name, []).append(unit)
        for name in unit.refers:
            referred_by.setdefault(name, []).append(unit)
    work = list(needed)

    def need(other: _Unit) -> None:
        if not other.needed:
            other.needed = True
            work.append(other)

    while work:
        unit = work.pop()
        if unit.owner is not None:
            need(unit.owner)
        for member in unit.members:
            if _is_dunder(getattr(member.node, "name", "")):
                need(member)
        for name in unit.refers:
            for other in defined_by.get(name, ()):
                need(other)
        for name in unit.defines:
            if not _is_dunder(name):
                for other in referred_by.get(name, ()):
                    need(other)


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def _reasons(unit: _Unit, words: tuple[str, ...], markers: frozenset[str], cuda_file: bool) -> list[str]:
    """Why `unit` is needed on its own (empty: only a link can make it needed)."""
    found = ["import or global"] if unit.imports else []
    found += [f"construct {m.strip()!r}" for m in sorted(unit.markers & markers)]
    held = "\0".join(unit.words)
    found += [f"word {w!r}" for w in words if w in held]
    if unit.owner is None and isinstance(unit.node, _FUNCTIONS) and _exports(unit.node):
        found.append("summary: returns or keeps")
    if cuda_file and _calls_outside_functions(unit.node):
        found.append("summary: import-time call after CUDA")
    return found


def measure(root: Path) -> None:
    markers, words = _vocabulary()
    total = definitions = triggered = needed = 0
    reasons: collections.Counter[str] = collections.Counter()
    for path in sorted(root.rglob("*.py")):
        try:
            text = decode(path.read_bytes())[0]
            module = ast.parse(text)
        except Exception:  # noqa: BLE001 - unreadable or not Python 3.11: not counted
            continue
        total += text.count("\n")
        units, _ = _units(module)
        cuda_file = any("cuda" in word for unit in units for word in unit.words)
        start = []
        for unit in units:
            why = _reasons(unit, words, markers, cuda_file)
            if not why:
                continue
            start.append(unit)
            unit.needed = True
            if not unit.members:
                size = unit.last - unit.first + 1
                for reason in why:
                    reasons[reason] += size
                if len(why) == 1:
                    reasons[f"{why[0]}, alone"] += size
        leaves = [u for u in units if not u.members and isinstance(u.node, _DEFINITIONS)]
        lines = {id(u): u.last - u.first + 1 for u in leaves}
        triggered += sum(lines[id(u)] for u in leaves if u.needed)
        _link(units, start)
        definitions += sum(lines.values())
        needed += sum(lines[id(u)] for u in leaves if u.needed)
    print(f"{root}: {total:,} lines, {definitions:,} in functions and methods; holding a trigger "
          f"{triggered:,}; needed once linked {needed:,}; blankable {definitions - needed:,} "
          f"({(definitions - needed) / max(total, 1):.1%} of all lines)")
    for reason, count in reasons.most_common(12):
        print(f"  {count:>9,} lines: {reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dirs", nargs="*", type=Path, default=[Path(tempfile.gettempdir()) / "memlint-bench-corpus" / "src"])
    args = parser.parse_args()
    sys.setrecursionlimit(20_000)
    for root in args.dirs:
        measure(root)


if __name__ == "__main__":
    main()

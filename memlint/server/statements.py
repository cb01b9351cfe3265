"""Findings of the top-level functions and classes an edit left alone, kept from earlier lints.

A keystroke changes one top-level statement; running every rule over a
10,000-line module again cost 30% of a change's lint (with the project summary,
60%, now computed apart: server/app.py). A rule's hook is given one node and
asks the semantic model about it, so the reports of the hooks on one
statement's nodes depend on that statement's text and on the facts of the rest
of the module the model reads to answer. This cache keeps the findings of each
top-level function and class, keyed on its text plus everything outside it that
such an answer can rest on:

* the module's context: every top-level statement that is not a function or a
  class (imports, module-level code: what runs at import, in order, and where
  among the functions), the module's leading comments, the rule set and the path;
* its component: the functions and classes linked to it through a name one
  binds at module level (a function's or class's name, a class's methods and
  attributes, a `global`) and the other mentions (a callee, a caller, a class
  and the code using its methods), transitively: their texts, in order;
* the module's features: the set of names, attributes, strings, callees (with
  their keywords), assignments and tested conditions anywhere in the module.
  The rules' file-wide checks are tests for the presence of such a thing ("does
  the file call torch.distributed", "is `use_cache` assigned anywhere", "is
  `loss.backward()` called", "is `h` reset somewhere"), so an edit that could
  change one changes this set, and then no statement keeps its findings. A new
  file-wide check must look for something this set holds (or add it here);
  tests/test_server_statements.py would show the miss on its test case.

A statement whose key was seen has the findings of that lint, moved to its
lines now; the others, module-level code and the module node itself are linted
again (engine.dispatch_rules on their nodes only). Anything outside this picture
lints the whole module: a text without statement lines, a rule that failed, a
finding or fix a hook placed outside its own statement (that statement is then
never kept), a fresh finding that repeats a kept one. The tests compare the
result with a fresh lint after every edit of a sequence over each file of
test_cases/ and over a two-file project.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Sequence

import libcst as cst

from memlint import engine
from memlint.analysis.syntax.imports import dotted
from memlint.models import Edit, FileError, Finding, Fix, Position

if TYPE_CHECKING:
    from memlint.analysis import SemanticModel
    from memlint.budget import Guard
    from memlint.rules.base import Rule

_CACHED = (cst.FunctionDef, cst.ClassDef)
_ASSIGNMENTS = (cst.Assign, cst.AnnAssign, cst.AugAssign)
_IMPORTS = (cst.Import, cst.ImportFrom)
_GENERATIONS = 4  # the entries of the last lints are kept (an undo finds them); older ones are dropped
# a message or hint that names a line (`the model of line 19`): moving the finding would leave the number stale
_NAMES_A_LINE = re.compile(r"\blines? \d")


@dataclass
class _Facts:
    """What one top-level statement shows the rest of the module (kept while the parser keeps the statement)."""

    statement: cst.CSTNode
    text: str
    binds: frozenset[str]  # names it defines at module level, as far as others may read them
    reads: frozenset[str]  # every name, attribute and identifier-like string it mentions
    features: frozenset[tuple]  # what file-wide checks look for
    is_import: bool


@dataclass
class _Kept:
    findings: list[tuple[Finding, tuple[bool, ...]]]  # rows from the statement's first line; per edit, whether
    # it lies in the module's header (a new import: its row is the context's, it does not move)
    lines: int


class StatementFindings:
    """Per document (the server's IncrementalParser holds one): findings of its top-level
    functions and classes by key; `reused` / `linted` count the statements of the last lint."""

    def __init__(self, spans: Callable[[cst.Module], list[tuple[int, int]] | None]) -> None:
        self._spans = spans  # the [start, end) offsets of a module's top-level statements, when the parser knows them
        self._facts: dict[int, _Facts] = {}
        self._kept: list[dict[tuple, _Kept]] = []  # per lint, newest first: the entries it used or made
        self._shared: tuple | None = None
        self.reused = 0
        self.linted = 0

    def findings(
        self,
        model: "SemanticModel",
        text: str,
        path: str,
        rules: Sequence[type["Rule"]],
        guard: "Guard",
    ) -> tuple[list[Finding], list[FileError]]:
        module = model.module
        first_lines = model.statement_lines
        spans = self._spans(module)
        if first_lines is None or spans is None or len(spans) != len(module.body):
            self._kept = []
            return self._whole(model, text, path, rules, guard)
        body = list(module.body)
        facts = [self._facts_of(model, statement, text[start:end]) for statement, (start, end) in zip(body, spans)]
        self._facts = {id(f.statement): f for f in facts}
        keys = self._keys(model, path, rules, facts)
        rows = [first_lines[id(s)] for s in body]
        ends = rows[1:] + [_row_count(text) + 1]
        header_end = rows[_header_length(body)] if _header_length(body) < len(body) else ends[-1]
        kept: list[Finding] = []
        dirty: list[cst.CSTNode] = [module]
        used: dict[tuple, _Kept] = {}
        for statement, key, row, end in zip(body, keys, rows, ends):
            entry = next((g[key] for g in self._kept if key in g), None) if key is not None else None
            if entry is None or entry.lines != end - row:
                dirty.append(statement)
            else:
                used[key] = entry
                kept.extend(_moved(f, row - 1, anchored) for f, anchored in entry.findings)
        origins: list[cst.CSTNode] = []
        reports, errors = engine.dispatch_rules(model, path, rules, guard, dirty, origins)
        if errors:
            self._kept = []
            return self._whole(model, text, path, rules, guard)
        fresh = engine.report_findings(model, text, path, reports, errors) if reports else []
        if errors:
            return self._whole(model, text, path, rules, guard)
        by_origin: dict[int, list[Finding]] = {}
        for origin, finding in zip(origins, fresh):
            if finding is not None:
                by_origin.setdefault(id(origin), []).append(finding)
        seen = {(f.code, f.location, f.end_location) for f in kept}
        result = list(kept)
        for finding in (f for group in by_origin.values() for f in group):
            if (finding.code, finding.location, finding.end_location) in seen:
                return self._whole(model, text, path, rules, guard)  # which one a whole pass keeps is its order's
            result.append(finding)
        linted = {id(s) for s in dirty}
        for statement, key, row, end in zip(body, keys, rows, ends):
            if key is None or id(statement) not in linted:
                continue
            found = by_origin.get(id(statement), [])
            placed = [_placement(f, row, end, header_end) for f in found]
            if all(p is not None for p in placed):
                used[key] = _Kept([(_moved(f, 1 - row, p), p) for f, p in zip(found, placed)], end - row)
        self._kept = [used, *self._kept[: _GENERATIONS - 1]]
        self.reused = len(body) - len(dirty) + 1
        self.linted = len(dirty) - 1
        result.sort(key=Finding.sort_key)
        return result, errors

    def _whole(
        self, model: "SemanticModel", text: str, path: str, rules: Sequence[type["Rule"]], guard: "Guard"
    ) -> tuple[list[Finding], list[FileError]]:
        """Every rule over the whole module: the lint this cache stands in for."""
        self.reused, self.linted = 0, len(model.module.body)
        return engine._run_rules(model, text, path, rules, guard)

    def _facts_of(self, model: "SemanticModel", statement: cst.CSTNode, text: str) -> _Facts:
        known = self._facts.get(id(statement))
        if known is not None and known.statement is statement:
            return known
        tree = model.tree
        names = {n.value for n in tree.in_top_level(statement, cst.Name)}
        attributes = {a.attr.value for a in tree.in_top_level(statement, cst.Attribute)}
        strings = {s.value for s in tree.in_top_level(statement, cst.SimpleString)}
        words = {w for s in strings if (w := s.strip("\"'rbuRBU")).isidentifier()}
        features: set[tuple] = {("name", n) for n in names}
        features |= {("attribute", a) for a in attributes}
        features |= {("string", s) for s in strings}
        for call in tree.in_top_level(statement, cst.Call):
            keywords = tuple(a.keyword.value for a in call.args if a.keyword is not None)
            features.add(("call", dotted(call.func) or type(call.func).__name__, len(call.args), keywords))
        code = model.module.code_for_node
        for node_type in _ASSIGNMENTS:
            features |= {("assign", code(n)) for n in tree.in_top_level(statement, node_type)}
        for node_type in (cst.If, cst.While):
            features |= {("test", code(n.test)) for n in tree.in_top_level(statement, node_type)}
        is_import = isinstance(statement, cst.SimpleStatementLine) and all(isinstance(s, _IMPORTS) for s in statement.body)
        if isinstance(statement, cst.FunctionDef):
            binds = {statement.name.value}
        elif isinstance(statement, cst.ClassDef):
            binds = {statement.name.value} | {f.name.value for f in tree.in_top_level(statement, cst.FunctionDef)}
            for node_type in _ASSIGNMENTS:
                for node in tree.in_top_level(statement, node_type):
                    binds |= _target_names(node)
        else:
            binds = names | attributes  # module-level code: whatever it mentions may be a global it sets
        binds |= {n.name.value for g in tree.in_top_level(statement, cst.Global) for n in g.names}
        return _Facts(statement, text, frozenset(binds), frozenset(names | attributes | words), frozenset(features), is_import)

    def _keys(self, model: "SemanticModel", path: str, rules: Sequence[type["Rule"]], facts: list[_Facts]) -> list[tuple | None]:
        """Per top-level statement, the key of its findings (None: module-level code, linted every time)."""
        module = model.module
        context = []
        defined = 0  # functions and classes before each piece of module-level code: their order is context
        for f in facts:
            if isinstance(f.statement, _CACHED):
                defined += 1
            else:
                context.append((defined, f.text))
        features = frozenset().union(*(f.features for f in facts))
        edges = module.code_for_node(module.with_changes(body=()))  # leading comments, footer, newline style
        shared = (path, tuple(r.code for r in rules), edges, tuple(context), features, model.project.digest)
        if shared == self._shared:
            shared = self._shared  # the same object: keys compare by identity, not by content, from here on
        self._shared = shared
        components = _components(facts)
        members: dict[int, list[int]] = {}
        for index, component in enumerate(components):
            members.setdefault(component, []).append(index)
        texts = {c: tuple(facts[i].text for i in indexes) for c, indexes in members.items()}
        place = {i: k for indexes in members.values() for k, i in enumerate(indexes)}  # its place in its component
        keys: list[tuple | None] = []
        for index, f in enumerate(facts):
            cached = isinstance(f.statement, _CACHED)
            keys.append((shared, texts[components[index]], place[index]) if cached else None)
        return keys


def _target_names(node: cst.CSTNode) -> set[str]:
    targets = [t.target for t in node.targets] if isinstance(node, cst.Assign) else [node.target]
    found = set()
    for target in targets:
        name = dotted(target) if isinstance(target, (cst.Name, cst.Attribute)) else None
        if name:
            found.add(name.rsplit(".", 1)[-1])
    return found


def _components(facts: list[_Facts]) -> list[int]:
    """Per statement, its component: statements joined where one binds a name the other reads;
    all module-level code is one (it runs in order); imports join nothing (they are context)."""
    parent = list(range(len(facts)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = find(i), find(j)
        if a != b:
            parent[max(a, b)] = min(a, b)

    binders: dict[str, int] = {}
    code = [i for i, f in enumerate(facts) if not f.is_import and not isinstance(f.statement, _CACHED)]
    for i in code[1:]:
        join(code[0], i)
    for i, f in enumerate(facts):
        if f.is_import:
            continue
        for name in f.binds:
            if name in binders:
                join(binders[name], i)
            else:
                binders[name] = i
    for i, f in enumerate(facts):
        if f.is_import:
            continue
        for name in f.reads:
            j = binders.get(name)
            if j is not None:
                join(i, j)
    return [find(i) for i in range(len(facts))]


def _header_length(body: list[cst.CSTNode]) -> int:
    """How many statements open the module as its docstring and `__future__` imports (a fix's
    import goes after them: its row is the context's)."""
    count = 0
    for index, statement in enumerate(body):
        small = statement.body[0] if isinstance(statement, cst.SimpleStatementLine) and statement.body else None
        docstring = index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString)
        future = isinstance(small, cst.ImportFrom) and isinstance(small.module, cst.Name) and small.module.value == "__future__"
        if not (docstring or future):
            break
        count += 1
    return count


def _row_count(text: str) -> int:
    return text.count("\n") + text.count("\r") - text.count("\r\n")


def _placement(finding: Finding, row: int, end: int, header_end: int) -> tuple[bool, ...] | None:
    """For a finding of the statement on rows [row, end): per edit of its fix, whether it lies in
    the module's header (a new import after the docstring: its row is the context's, it stays where
    the statement moves); None when the finding or an edit lies elsewhere, or cannot be told apart,
    or when its text names a line (the statement is then linted again after each edit)."""
    if not (row <= finding.location.row and finding.end_location.row < end):
        return None
    if _NAMES_A_LINE.search(finding.message) or _NAMES_A_LINE.search(finding.hint or ""):
        return None
    anchored = []
    for edit in finding.fix.edits if finding.fix is not None else ():
        if edit.end.row < row and edit.end.row <= header_end:
            anchored.append(True)
        elif row <= edit.start.row and edit.end.row <= end and not (edit.start.row == header_end == row):
            anchored.append(False)
        else:
            return None
    return tuple(anchored)


def _moved(finding: Finding, by: int, anchored: tuple[bool, ...]) -> Finding:
    """The finding `by` rows further down; its edits in the module's header stay."""

    def move(position: Position) -> Position:
        return Position(position.row + by, position.column)

    fix = finding.fix
    if fix is not None and fix.edits:
        edits = tuple(e if a else Edit(e.content, move(e.start), move(e.end)) for e, a in zip(fix.edits, anchored))
        fix = Fix(fix.applicability, fix.message, edits)
    return replace(finding, location=move(finding.location), end_location=move(finding.end_location), fix=fix)

"""Compare a light tree (memlint/analysis/syntax/light.py) with LibCST's parse of the same text.

`tree_mismatch` walks both trees in parallel: the same node type everywhere and every dataclass
field equal, except the whitespace and punctuation fields a light tree leaves at their defaults;
parentheses and relative-import dots by count; operators, `async` and a slice's colons by type.
`span_mismatches` compares the light spans with LibCST's PositionProvider for statements,
expressions, Arg, Param, Element and ExceptHandler.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

SKIPPED = frozenset(
    (
        "leading_lines lines_after_decorators header footer comma semicolon colon equal lbracket rbracket"
        " lbrace rbrace first_line empty_lines indent newline default_indent default_newline"
        " has_trailing_newline encoding"
    ).split()
)
BY_LENGTH = frozenset(("lpar", "rpar", "relative"))
BY_TYPE = frozenset(("operator", "asynchronous"))
# The nodes whose spans a light tree gives (requirement 2 of issue 19's light tree).
SPANNED = (
    cst.BaseExpression,
    cst.BaseSmallStatement,
    cst.BaseCompoundStatement,
    cst.SimpleStatementLine,
    cst.Arg,
    cst.Param,
    cst.BaseElement,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
)


def _skipped(name: str) -> bool:
    return name in SKIPPED or "whitespace" in name


def tree_mismatch(light: cst.CSTNode, parsed: cst.CSTNode, path: str = "Module") -> str | None:
    """The first difference between the two trees, as 'path: what', or None if equal."""
    if type(light) is not type(parsed):
        return f"{path}: {type(light).__name__} != {type(parsed).__name__}"
    for field in dataclasses.fields(parsed):
        name = field.name
        if _skipped(name):
            continue
        a, b = getattr(light, name), getattr(parsed, name)
        where = f"{path}.{name}"
        if name in BY_LENGTH:
            if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
                if len(a) != len(b):
                    return f"{where}: {len(a)} != {len(b)}"
            elif type(a) is not type(b):
                return f"{where}: {type(a).__name__} != {type(b).__name__}"
            continue
        if name in BY_TYPE or name.endswith("_colon"):  # a Slice's colons: present or not
            if type(a) is not type(b):
                return f"{where}: {type(a).__name__} != {type(b).__name__}"
            continue
        found = _value_mismatch(a, b, where)
        if found:
            return found
    return None


def _value_mismatch(a: object, b: object, where: str) -> str | None:
    if isinstance(b, cst.CSTNode):
        if not isinstance(a, cst.CSTNode):
            return f"{where}: {a!r} != {type(b).__name__}"
        return tree_mismatch(a, b, f"{where}<{type(b).__name__}>")
    if isinstance(b, (list, tuple)):
        if not isinstance(a, (list, tuple)) or len(a) != len(b):
            return f"{where}: length {len(a) if isinstance(a, (list, tuple)) else a!r} != {len(b)}"
        for index, (x, y) in enumerate(zip(a, b)):
            found = _value_mismatch(x, y, f"{where}[{index}]")
            if found:
                return found
        return None
    if type(a) is not type(b) or a != b:
        return f"{where}: {a!r} != {b!r}"
    return None


def _pairs(light: cst.CSTNode, parsed: cst.CSTNode) -> Iterator[tuple[cst.CSTNode, cst.CSTNode]]:
    """The nodes of two equal trees (per `tree_mismatch`), paired, skipping whitespace and punctuation."""
    stack = [(light, parsed)]
    while stack:
        a, b = stack.pop()
        yield a, b
        for field in dataclasses.fields(b):
            if _skipped(field.name) or field.name in BY_LENGTH or field.name in BY_TYPE:
                continue
            x, y = getattr(a, field.name), getattr(b, field.name)
            if isinstance(y, cst.CSTNode):
                stack.append((x, y))
            elif isinstance(y, (list, tuple)):
                stack.extend((p, q) for p, q in zip(x, y) if isinstance(q, cst.CSTNode))


def span_mismatches(light: cst.Module, spans: dict, parsed: cst.Module) -> tuple[int, int, list[str]]:
    """(nodes checked, nodes whose light span equals PositionProvider's, the first few differences)
    over the SPANNED nodes of two equal trees."""
    positions = MetadataWrapper(parsed, unsafe_skip_copy=True).resolve(PositionProvider)
    checked = equal = 0
    differences: list[str] = []
    for a, b in _pairs(light, parsed):
        if not isinstance(b, SPANNED):
            continue
        checked += 1
        where = positions[b]
        expected = (where.start.line, where.start.column, where.end.line, where.end.column)
        got = spans.get(id(a))
        if got == expected:
            equal += 1
        elif len(differences) < 5:
            differences.append(f"{type(b).__name__} at {expected}: {got}")
    return checked, equal, differences

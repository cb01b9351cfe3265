"""What a rule is: a code, a name, documentation, node hooks, and `report()`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, ClassVar

import libcst as cst

from memlint.analysis import SemanticModel
from memlint.analysis.imports import dotted
from memlint.analysis.loops import Store
from memlint.models import Applicability, Severity


@dataclass(frozen=True)
class FixSpec:
    """A fix as CST replacements; the engine turns each into a text edit.

    `replacements` pairs an existing node with the node to put in its place;
    `prepend` is source text to add at the top of the module (after the
    docstring and `__future__` imports), e.g. a missing `import torch`.
    """

    applicability: Applicability
    message: str
    replacements: tuple[tuple[cst.CSTNode, cst.CSTNode], ...] = ()
    prepend: str = ""


@dataclass
class Report:
    node: cst.CSTNode
    message: str
    hint: str
    severity: Severity
    fix: FixSpec | None = None
    extra: dict = field(default_factory=dict)


class Rule:
    """Base class. Subclasses define `visit_<NodeType>(self, node)` hooks.

    The engine calls every hook of every enabled rule during one pass over the
    file's nodes; a hook asks `self.model` (the shared semantic model) its
    questions and calls `self.report(...)`.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    summary: ClassVar[str]  # one line: the rule table and SARIF shortDescription
    what: ClassVar[str]
    why: ClassVar[str]
    example: ClassVar[str]
    use_instead: ClassVar[str]
    fix_applicability: ClassVar[Applicability | None] = None
    # Cheap pre-check: the file must contain at least one string of every group.
    needles: ClassVar[tuple[tuple[str, ...], ...]] = ()

    def __init__(self, model: SemanticModel, sink: Callable[["Rule", Report], None]) -> None:
        self.model = model
        self._sink = sink

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        hint: str,
        *,
        fix: FixSpec | None = None,
        severity: Severity | None = None,
        **extra: object,
    ) -> None:
        self._sink(self, Report(node, message, hint, severity or self.severity, fix, dict(extra)))

    @classmethod
    def may_apply(cls, source: str) -> bool:
        return all(any(n in source for n in group) for group in cls.needles)

    @classmethod
    def hooks(cls) -> dict[type, str]:
        """Node type -> hook method name, from `visit_<NodeType>` methods."""
        found = {}
        for attr in dir(cls):
            if attr.startswith("visit_"):
                node_type = getattr(cst, attr[len("visit_"):], None)
                if isinstance(node_type, type):
                    found[node_type] = attr
        return found

    @classmethod
    def documentation(cls) -> str:
        """ruff-style Markdown: feeds `memlint explain`, the README and SARIF help."""
        return (
            f"# {cls.name} ({cls.code})\n\n"
            f"Severity: {cls.severity.value}. Fix: {(cls.fix_applicability.value if cls.fix_applicability else 'none')}.\n\n"
            f"## What it does\n{cls.what.strip()}\n\n"
            f"## Why is this bad?\n{cls.why.strip()}\n\n"
            f"## Example\n```python\n{cls.example.strip()}\n```\n\n"
            f"## Use instead\n```python\n{cls.use_instead.strip()}\n```\n"
        )


@dataclass(frozen=True)
class FileProblem:
    """A code the engine reports about a file as a whole (it does not parse, it
    cannot be read): documented like a rule, but no rule class finds it."""

    code: str
    name: str
    summary: str
    what: str
    why: str
    use_instead: str
    severity: Severity = Severity.ERROR
    fix_applicability: Applicability | None = None

    def documentation(self) -> str:
        return (
            f"# {self.name} ({self.code})\n\nSeverity: {self.severity.value}. Fix: none.\n\n"
            f"## What it does\n{self.what}\n\n## Why is this bad?\n{self.why}\n\n## Use instead\n{self.use_instead}\n"
        )


class StoreRule(Rule):
    """A rule about values kept in a container or accumulator (`losses.append(loss)`,
    `total += loss`, `d[k] = v`): it implements `check_store` for each such statement."""

    def visit_Expr(self, node: cst.Expr) -> None:
        self._dispatch(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._dispatch(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._dispatch(node)

    def _dispatch(self, statement: cst.CSTNode) -> None:
        store = self.model.loops.store_of(statement)
        if store is not None:
            self.check_store(store)

    def check_store(self, store: Store) -> None:
        raise NotImplementedError


def detach(expr: cst.BaseExpression, method: str = "detach") -> cst.BaseExpression:
    """`expr.detach()`, parenthesising when precedence needs it."""
    needs_parens = not isinstance(
        expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.List, cst.Tuple, cst.Dict)
    ) or (isinstance(expr, cst.Tuple) and not expr.lpar)
    receiver = expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if needs_parens else expr
    return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(method)))


def detach_entries(mapping: cst.BaseExpression, torch: str) -> cst.BaseExpression:
    """`{k: v.detach() if isinstance(v, torch.Tensor) else v for k, v in d.items()}`."""
    return cst.parse_expression(
        f"{{k: v.detach() if isinstance(v, {torch}.Tensor) else v for k, v in {cst.Module([]).code_for_node(mapping)}.items()}}"
    )


def torch_alias(model: SemanticModel) -> str | None:
    """The module-level name `torch` is imported as (a function-local import does not count)."""
    for stmt in model.module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        if dotted(alias.name) == "torch":
                            return dotted(alias.asname.name) if alias.asname else "torch"
    return None


def chain(expr: cst.BaseExpression, *methods: str) -> cst.BaseExpression:
    for method in methods:
        expr = detach(expr, method)
    return expr

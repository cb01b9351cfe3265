"""What a rule is: a code, a name, documentation, node hooks, and `report()`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, ClassVar

import libcst as cst

from memlint.analysis import SemanticModel
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.regions.loops import Store
from memlint.analysis.syntax.tree import iter_children
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


# A class derived from another (`class SegRunner(IterBasedRunner):`): its methods may be those a base
# class in another file calls from its step loop (`self.run_iter(batch)`), so a rule that looks for a
# loop reads the file although it has none. (A cost gate only: the base's facts decide.)
_DERIVED_CLASS = re.compile(r"^[ \t]*class[ \t]+\w+[ \t]*\([ \t]*(?!object\b|(?:torch\.)?nn\.Module\b)\w", re.MULTILINE)


def _loop_elsewhere(group: tuple[str, ...], source: str) -> bool:
    return "for " in group and "class" in source and _DERIVED_CLASS.search(source) is not None


class Rule:
    """Base class. Subclasses define `visit_<NodeType>(self, node)` hooks.

    The engine calls every hook of every enabled rule during one pass over the
    file's nodes; a hook asks `self.model` (the shared semantic model) its
    questions and calls `self.report(...)`.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity]
    # where a finding's severity can differ from the default: when, in a few words
    severity_otherwise: ClassVar[str] = ""
    summary: ClassVar[str]  # one line: the rule table and SARIF shortDescription
    what: ClassVar[str]
    why: ClassVar[str]
    example: ClassVar[str]
    use_instead: ClassVar[str]
    fix_applicability: ClassVar[Applicability | None] = None
    # Cheap pre-check: the file must contain at least one string of every group.
    needles: ClassVar[tuple[tuple[str, ...], ...]] = ()
    # Whether the context a finding needs may lie in the files that import this one (a helper that
    # runs the model it is handed, which callers in other files run in evaluation): the rule then
    # reads every file that other files of the project import from, needles or not.
    context_in_importers: ClassVar[bool] = False

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
    def may_apply(cls, source: str, imported: bool = False) -> bool:
        if imported and cls.context_in_importers:
            return True
        return all(any(n in source for n in group) or _loop_elsewhere(group, source) for group in cls.needles)

    @classmethod
    def hooks(cls) -> dict[type, str]:
        """Node type -> hook method name, from `visit_<NodeType>` methods (found once per class:
        the engine asks for every rule of every file)."""
        found = _HOOKS.get(cls)
        if found is None:
            found = _HOOKS[cls] = {}
            for attr in dir(cls):
                if attr.startswith("visit_"):
                    node_type = getattr(cst, attr[len("visit_"):], None)
                    if isinstance(node_type, type):
                        found[node_type] = attr
        return dict(found)  # a copy: the caller may change it

    @classmethod
    def documentation(cls) -> str:
        """ruff-style Markdown: feeds `memlint explain`, the rule pages of the documentation and SARIF help."""
        return (
            f"# {cls.name} ({cls.code})\n\n"
            f"Severity: {cls.severity.value}{'; ' + cls.severity_otherwise if cls.severity_otherwise else ''}. Fix: {(cls.fix_applicability.value if cls.fix_applicability else 'none')}.\n\n"
            f"## What it does\n{cls.what.strip()}\n\n"
            f"## Why is this bad?\n{cls.why.strip()}\n\n"
            f"## Example\n```python\n{cls.example.strip()}\n```\n\n"
            f"## Use instead\n```python\n{cls.use_instead.strip()}\n```\n"
        )


_HOOKS: dict[type[Rule], dict[type, str]] = {}


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
            f"# {self.name} ({self.code})\n\nSeverity: {self.severity.value}. "
            f"Fix: {self.fix_applicability.value if self.fix_applicability else 'none'}.\n\n"
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

    def visit_Return(self, node: cst.Return) -> None:
        self._dispatch(node)

    def visit_If(self, node: cst.If) -> None:
        self._dispatch(node)

    def visit_While(self, node: cst.While) -> None:
        self._dispatch(node)

    def _dispatch(self, statement: cst.CSTNode) -> None:
        store = self.model.loops.store_of(statement)
        if store is not None:
            self.check_store(store)
            return
        collected = self.model.loops.comprehension_store(statement)
        if collected is not None:
            self.check_comprehension(*collected)

    def check_store(self, store: Store) -> None:
        raise NotImplementedError

    def check_comprehension(self, store: Store, loop: cst.CompFor) -> None:
        """A comprehension over batches that collects its element into `store.container` (a loop
        whose body appends it); rules about kept values override this."""


def detach(expr: cst.BaseExpression, method: str = "detach") -> cst.BaseExpression:
    """`expr.detach()`, parenthesising when precedence needs it."""
    needs_parens = not isinstance(
        expr, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.List, cst.Tuple, cst.Dict)
    ) or (isinstance(expr, cst.Tuple) and not expr.lpar)
    receiver = expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if needs_parens else expr
    return cst.Call(func=cst.Attribute(value=receiver, attr=cst.Name(method)))


def detach_entries(mapping: cst.BaseExpression, torch: str, off_device: bool = False) -> cst.BaseExpression:
    """`{k: v.detach() if isinstance(v, torch.Tensor) else v for k, v in d.items()}`
    (`v.detach().cpu()` with `off_device`): the tensors moved, the other entries kept as they are."""
    move = "v.detach().cpu()" if off_device else "v.detach()"
    return cst.parse_expression(
        f"{{k: {move} if isinstance(v, {torch}.Tensor) else v for k, v in {cst.Module([]).code_for_node(mapping)}.items()}}"
    )


def off_device(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`x.detach().cpu()`; just `.cpu()` after an existing `.detach()`."""
    already = isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == "detach"
    return chain(expr, "cpu") if already else chain(expr, "detach", "cpu")


def keep_fix(
    model: SemanticModel,
    store: Store,
    region: cst.CSTNode,
    replacements: list[tuple[cst.BaseExpression, cst.BaseExpression]],
    message: str,
    surely_tensors: bool,
) -> FixSpec | None:
    """The fix of a value kept beyond its step (ML001, ML005), labelled by one evidence rule.

    `replacements` are the store's own edits (`.detach()`, `.detach().cpu()`).
    Where one moves a value off the device, every value that the code after
    the loop combines with it (`combined.partners`) is moved too, or there is
    no fix: half of a comparison on the CPU fails. The fix is SAFE only when
    every replaced value is surely a tensor and nothing changes device;
    moving off the device is UNSAFE (code memlint cannot see may use the
    values on the device), in every rule.
    """
    from memlint.analysis.flow.combined import loop_stores, partners, returned_after
    from memlint.analysis.syntax.expressions import code, literal_parts

    moves = any(_moves(new) for _, new in replacements)
    edits = list(replacements)
    if moves:
        scope = model.scope_of(store.statement)
        if isinstance(scope, cst.FunctionDef) and model.loops.is_module_forward(scope) and returned_after(model, store, region):
            return None  # the module's output is built from what is collected: it must stay where it is
        if store.kind == "concat":  # `t = torch.cat([t, v])`: the running tensor moves with the new rows
            elements = store.statement.value.args[0].value.elements
            edits += [(e.value, off_device(e.value)) for e in elements if code(e.value) == code(store.container)]
        for partner in partners(model, store, region, loop_stores(model, region)):
            for part in literal_parts(partner.value):
                if not model.provenance.device_output(part, partner.statement):
                    continue
                surely = model.provenance.value_kind(part, partner.statement) == "tensor" or (
                    part is partner.value and model.provenance.collected_tensors(partner.container, partner.statement)
                )
                if not surely:
                    return None  # not known to be a tensor (a container we cannot move as one): no half fix
                edits.append((part, off_device(part)))
    applicability = Applicability.SAFE if surely_tensors and not moves else Applicability.UNSAFE
    if moves and len(edits) > len(replacements):
        message += ", with the values it is combined with"
    return FixSpec(applicability, message, tuple(edits))


def _moves(expr: cst.BaseExpression) -> bool:
    """Does the replacement end in `.cpu()` (anywhere in a comprehension's value)?"""
    return any(
        isinstance(call.func, cst.Attribute) and call.func.attr.value == "cpu"
        for call in _calls(expr)
    )


def _calls(node: cst.CSTNode) -> list[cst.Call]:
    found = [node] if isinstance(node, cst.Call) else []
    for child in iter_children(node):  # LibCST's `children` runs a visitor over every field
        found.extend(_calls(child))
    return found


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

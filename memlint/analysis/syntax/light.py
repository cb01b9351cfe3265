"""A light tree: LibCST's node classes built from `ast`, for a quarter of the CPU of LibCST's parser.

`light_module(ast.parse(text), text)` gives the tree `libcst.parse_module(text)` would, node for
node and field for field, except whitespace and punctuation fields (comments, blank lines, commas,
colons...), which keep their dataclass defaults: the code it generates is valid, normalized code.
Parentheses (`lpar`/`rpar`, which `ast` drops) are counted from the text; spans are what
LibCST's PositionProvider gives for every statement, expression, Arg and Param. Where the text
holds anything not reproduced exactly (PEP 695 type parameters, a syntax of a newer Python,
an f-string expression `ast` misplaces, a form feed...), the answer is None, never a different tree.
Nodes are built without `__init__` (light_nodes.py): a parse is valid by construction.
"""

from __future__ import annotations

import ast
import gc
import re
from dataclasses import dataclass
from typing import Callable

import libcst as cst

from memlint.analysis.syntax import light_nodes as N
from memlint.analysis.syntax.light_expressions import ExpressionTranslator
from memlint.analysis.syntax.light_match import pattern
from memlint.analysis.syntax.light_source import Untranslated

Span = tuple[int, int, int, int]  # start line (1-based), start column, end line, end column (characters)


@dataclass
class LightModule:
    module: cst.Module
    spans: dict[int, Span]  # id(node) -> its PositionProvider range


def light_module(tree: ast.Module, text: str) -> LightModule | None:
    """The light tree of `text`, whose `ast.parse` is `tree`; None when any of it is not translated.

    Guaranteed: `module` equals `libcst.parse_module(text)` node for node (benchmarks/light_compare.py)
    but for whitespace, comments and punctuation (commas, colons, brackets, semicolons, `as`/`=`
    spacing), which keep their defaults; `lpar`/`rpar` and relative-import dots have LibCST's
    counts. `spans` holds PositionProvider's range of every statement (SimpleStatementLine
    included), expression, Arg and Param, and ExceptHandler/Element ranges; not of blocks, Else,
    Decorator or Annotation.
    None: a form feed, PEP 695 type parameters and `type` aliases, f-string expressions Python
    3.11 misplaces (a tuple, some spanning lines) or holding a comment or backslash, t-strings,
    Python 3.14's `except A, B:`, any `ast` node or spelling not known here (`import a . b`, a
    keyword split by a line continuation...).
    """
    if "\f" in text:  # LibCST's columns restart after a form feed, `ast`'s do not
        return None
    translator = _Translator(text)
    # The tree has no reference cycles: the collector's passes over its young nodes (a fifth of
    # the translation's time) find nothing to free.
    collecting = gc.isenabled()
    gc.disable()
    try:
        body = translator.statements(tree.body)
    except (Untranslated, KeyError, AttributeError, IndexError, TypeError, ValueError, UnicodeError, RecursionError):
        return None
    finally:
        if collecting:
            gc.enable()
    return LightModule(N.Module(body), translator.spans)


_DEF = re.compile(r"(?:async[ \t\f]+)?def[ \t\f]+")
_CLASS = re.compile(r"class[ \t\f]+")
_FROM = re.compile(r"from[ \t\f]*((?:\.[ \t\f]*)*)")
_AS = re.compile(r"[ \t\f]+as[ \t\f]+")
_WITH = re.compile(r"(?:async[ \t\f]+)?with[ \t\f]*")
_SIMPLE = frozenset(
    (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Assert, ast.Delete, ast.Pass)
    + (ast.Break, ast.Continue, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)
)


class _Translator(ExpressionTranslator):
    """Translates the statements of one module."""

    def statements(self, body: list[ast.stmt]) -> list[cst.BaseStatement]:
        """A block's statements, simple ones on one line (`a; b`) in one SimpleStatementLine."""
        out: list[cst.BaseStatement] = []
        index = 0
        count = len(body)
        while index < count:
            node = body[index]
            if type(node) not in _SIMPLE:
                handler = _COMPOUND.get(type(node))
                if handler is None:
                    raise Untranslated(type(node).__name__)
                statement = handler(self, node)
                if id(statement) not in self.spans:
                    self.spans[id(statement)] = self.span_of(node)
                out.append(statement)
                index += 1
                continue
            small = [self.small(node)]
            last = node
            index += 1
            while index < count and body[index].lineno == last.end_lineno and type(body[index]) in _SIMPLE:
                last = body[index]
                small.append(self.small(last))
                index += 1
            line = N.SimpleStatementLine(small)
            self.spans[id(line)] = self.spans[id(small[0])][:2] + self.spans[id(small[-1])][2:]
            out.append(line)
        return out

    def small(self, node: ast.stmt) -> cst.BaseSmallStatement:
        span = self.span_of(node)
        self.statement_start = self.source.starts[span[0] - 1] + span[1]
        statement = _SMALL[type(node)](self, node)
        self.spans[id(statement)] = span
        return statement

    def block(self, body: list[ast.stmt]) -> cst.BaseSuite:
        """An indented block, or the statements after the colon on the header's line."""
        first = body[0]
        row = self.source.rows[first.lineno - 1]
        column = self.source.column(first.lineno, first.col_offset)
        if row[:column].strip(" \t\f") == "":
            if first.lineno > 1 and self.source.rows[first.lineno - 2].endswith("\\"):
                raise Untranslated("continued line")
            return N.IndentedBlock(self.statements(body))
        small = []
        for node in body:
            if type(node) not in _SIMPLE:
                raise Untranslated("suite")
            small.append(self.small(node))
        return N.SimpleStatementSuite(small)

    def orelse(self, body: list[ast.stmt]) -> cst.Else | None:
        return N.Else(self.block(body)) if body else None

    def keyword_end(self, node: ast.stmt, pattern: re.Pattern) -> int:
        """The offset after the statement's leading keywords (`def `, `async with `...)."""
        start = self.source.offset(node.lineno, node.col_offset)
        match = pattern.match(self.text, start)
        if match is None:
            raise Untranslated("keyword")
        return match.end()

    def decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[cst.Decorator]:
        return [N.Decorator(self.expr(decorator)) for decorator in node.decorator_list]

    def dotted(self, value: str, offset: int) -> cst.Name | cst.Attribute:
        """A dotted module name written at `offset` (no spaces around its dots) as Attribute chains."""
        if not self.text.startswith(value, offset):
            raise Untranslated("dotted name")
        parts = value.split(".")
        result: cst.Name | cst.Attribute = self.name_at(parts[0], offset)
        first = self.spans[id(result)]
        offset += len(parts[0]) + 1
        for part in parts[1:]:
            attr = self.name_at(part, offset)
            result = N.Attribute(result, attr)
            self.spans[id(result)] = first[:2] + self.spans[id(attr)][2:]
            offset += len(part) + 1
        return result

    def alias(self, node: ast.alias) -> cst.ImportAlias:
        start = self.source.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        name = self.dotted(node.name, start)
        asname = None
        if node.asname is not None:
            match = _AS.match(self.text, start + len(node.name))
            if match is None:
                raise Untranslated("as")
            asname = N.AsName(self.find_name(node.asname, match.end())[0])
        return N.ImportAlias(name, asname)


def _expr(self: _Translator, node: ast.Expr) -> cst.Expr:
    return N.Expr(self.expr(node.value))


def _assign(self: _Translator, node: ast.Assign) -> cst.Assign:
    targets = [N.AssignTarget(self.expr(target)) for target in node.targets]
    return N.Assign(targets, self.expr(node.value))


def _aug_assign(self: _Translator, node: ast.AugAssign) -> cst.AugAssign:
    target = self.expr(node.target)
    return N.AugAssign(target, N.AUGMENTED[type(node.op)], self.expr(node.value))


def _ann_assign(self: _Translator, node: ast.AnnAssign) -> cst.AnnAssign:
    target = self.expr(node.target)
    annotation = N.Annotation(self.expr(node.annotation))
    return N.AnnAssign(target, annotation, self.optional(node.value))


def _return(self: _Translator, node: ast.Return) -> cst.Return:
    return N.Return(self.optional(node.value))


def _raise(self: _Translator, node: ast.Raise) -> cst.Raise:
    exc = self.optional(node.exc)
    return N.Raise(exc, N.From(self.expr(node.cause)) if node.cause is not None else None)


def _assert(self: _Translator, node: ast.Assert) -> cst.Assert:
    test = self.expr(node.test)
    return N.Assert(test, self.optional(node.msg))


def _delete(self: _Translator, node: ast.Delete) -> cst.Del:
    if len(node.targets) == 1:
        return N.Del(self.expr(node.targets[0]))
    elements = self.elements(node.targets)
    target = N.Tuple(elements)
    self.spans[id(target)] = self.spans[id(elements[0])][:2] + self.spans[id(elements[-1])][2:]
    return N.Del(target)


def _pass(self: _Translator, node: ast.Pass) -> cst.Pass:
    return N.Pass()


def _break(self: _Translator, node: ast.Break) -> cst.Break:
    return N.Break()


def _continue(self: _Translator, node: ast.Continue) -> cst.Continue:
    return N.Continue()


def _names(self: _Translator, node: ast.Global | ast.Nonlocal, keyword: str) -> list[cst.NameItem]:
    offset = self.source.offset(node.lineno, node.col_offset) + len(keyword)
    items = []
    for value in node.names:
        name, offset = self.find_name(value, offset)
        items.append(N.NameItem(name))
    return items


def _global(self: _Translator, node: ast.Global) -> cst.Global:
    return N.Global(_names(self, node, "global"))


def _nonlocal(self: _Translator, node: ast.Nonlocal) -> cst.Nonlocal:
    return N.Nonlocal(_names(self, node, "nonlocal"))


def _import(self: _Translator, node: ast.Import) -> cst.Import:
    return N.Import([self.alias(alias) for alias in node.names])


def _import_from(self: _Translator, node: ast.ImportFrom) -> cst.ImportFrom:
    match = _FROM.match(self.text, self.source.offset(node.lineno, node.col_offset))
    if match is None or match.group(1).count(".") != node.level:
        raise Untranslated("from")
    module = self.dotted(node.module, match.end()) if node.module is not None else None
    names = node.names
    lpar = rpar = None
    if len(names) == 1 and names[0].name == "*":
        imported: object = N.ImportStar()
    else:
        imported = [self.alias(alias) for alias in names]
        first = self.source.offset(names[0].lineno, names[0].col_offset)  # type: ignore[attr-defined]
        if self.source.opening(first, names[0].lineno):  # type: ignore[attr-defined]
            lpar, rpar = N.LPAR, N.RPAR
    return N.ImportFrom(module, imported, tuple(N.Dot() for _ in range(node.level)), lpar, rpar)


_SMALL = {
    ast.Expr: _expr,
    ast.Assign: _assign,
    ast.AugAssign: _aug_assign,
    ast.AnnAssign: _ann_assign,
    ast.Return: _return,
    ast.Raise: _raise,
    ast.Assert: _assert,
    ast.Delete: _delete,
    ast.Pass: _pass,
    ast.Break: _break,
    ast.Continue: _continue,
    ast.Global: _global,
    ast.Nonlocal: _nonlocal,
    ast.Import: _import,
    ast.ImportFrom: _import_from,
}


def _function(self: _Translator, node: ast.FunctionDef | ast.AsyncFunctionDef) -> cst.FunctionDef:
    if getattr(node, "type_params", None):
        raise Untranslated("type parameters")
    decorators = self.decorators(node)
    name = self.name_at(node.name, self.keyword_end(node, _DEF))
    params = self.parameters(node.args)
    returns = N.Annotation(self.expr(node.returns)) if node.returns is not None else None
    body = self.block(node.body)
    asynchronous = N.ASYNC if type(node) is ast.AsyncFunctionDef else None
    return N.FunctionDef(name, params, body, decorators, returns, asynchronous)


def _class(self: _Translator, node: ast.ClassDef) -> cst.ClassDef:
    if getattr(node, "type_params", None):
        raise Untranslated("type parameters")
    decorators = self.decorators(node)
    name_start = self.keyword_end(node, _CLASS)
    name = self.name_at(node.name, name_start)
    after = self.source.gap_end(name_start + len(node.name))
    lpar = rpar = N.DEFAULT
    if self.text[after] == "(":
        lpar, rpar = N.LPAR, N.RPAR
    arguments = self.arguments(node.bases, node.keywords)
    bases = [arg for arg in arguments if arg.keyword is None and arg.star != "**"]
    keywords = [arg for arg in arguments if arg.keyword is not None or arg.star == "**"]
    if bases + keywords != arguments:
        raise Untranslated("class arguments")
    return N.ClassDef(name, self.block(node.body), bases, keywords, decorators, lpar, rpar)


def _if(self: _Translator, node: ast.If) -> cst.If:
    test = self.expr(node.test)
    body = self.block(node.body)
    orelse = node.orelse
    if len(orelse) == 1 and type(orelse[0]) is ast.If:
        inner = orelse[0]
        if self.text.startswith("elif", self.source.offset(inner.lineno, inner.col_offset)):
            elif_ = _if(self, inner)
            self.spans[id(elif_)] = self.span_of(inner)
            return N.If(test, body, elif_)
    return N.If(test, body, self.orelse(orelse))


def _for(self: _Translator, node: ast.For | ast.AsyncFor) -> cst.For:
    target = self.expr(node.target)
    iterator = self.expr(node.iter)
    body = self.block(node.body)
    asynchronous = N.ASYNC if type(node) is ast.AsyncFor else None
    return N.For(target, iterator, body, self.orelse(node.orelse), asynchronous)


def _while(self: _Translator, node: ast.While) -> cst.While:
    test = self.expr(node.test)
    return N.While(test, self.block(node.body), self.orelse(node.orelse))


def _try(self: _Translator, node: ast.Try | ast.TryStar) -> cst.Try | cst.TryStar:
    star = type(node) is ast.TryStar
    body = self.block(node.body)
    handlers = []
    for handler in node.handlers:
        kind = self.optional(handler.type)
        if type(kind) is cst.Tuple and not kind.lpar:  # Python 3.14's `except A, B:`, which LibCST rejects
            raise Untranslated("except without parentheses")
        name = None
        if handler.name is not None:
            start = self.outer_span(kind)  # type: ignore[arg-type]
            offset = self.source.starts[start[2] - 1] + start[3]
            match = _AS.match(self.text, offset)
            if match is None:
                raise Untranslated("except as")
            name = N.AsName(self.find_name(handler.name, match.end())[0])
        made = (N.ExceptStarHandler if star else N.ExceptHandler)(self.block(handler.body), kind, name)
        self.spans[id(made)] = self.span_of(handler)
        handlers.append(made)
    orelse = self.orelse(node.orelse)
    finalbody = N.Finally(self.block(node.finalbody)) if node.finalbody else None
    return (N.TryStar if star else N.Try)(body, handlers, orelse, finalbody)


def _with(self: _Translator, node: ast.With | ast.AsyncWith) -> cst.With:
    items = node.items
    opening = self.keyword_end(node, _WITH)
    source = self.source
    parenthesized = False
    if self.text[opening] == "(":
        first = items[0].context_expr
        first_start = source.offset(first.lineno, first.col_offset)
        if opening < first_start:
            first_end = source.offset(first.end_lineno, first.end_col_offset)  # type: ignore[arg-type]
            wraps = source.closing(first_end, source.opening(first_start, first.lineno))[0]
            mine = wraps and source.opening_at(first_start, first.lineno, wraps) == opening
            parenthesized = not mine or (len(items) == 1 and items[0].optional_vars is None)
    owned = 1 if parenthesized and len(items) == 1 and items[0].optional_vars is None else 0
    made = []
    for item in items:
        value = self.expr(item.context_expr, owned)
        target = item.optional_vars
        made.append(N.WithItem(value, N.AsName(self.expr(target)) if target is not None else None))
    lpar, rpar = (N.LPAR, N.RPAR) if parenthesized else (N.DEFAULT, N.DEFAULT)
    asynchronous = N.ASYNC if type(node) is ast.AsyncWith else None
    return N.With(made, self.block(node.body), asynchronous, lpar, rpar)


def _match(self: _Translator, node: ast.Match) -> cst.Match:
    subject = self.expr(node.subject)
    cases = []
    for case in node.cases:
        found = pattern(self, case.pattern)
        guard = self.optional(case.guard)
        cases.append(N.MatchCase(found, self.block(case.body), guard, N.SPACE, N.SPACE))
    return N.Match(subject, cases)


_COMPOUND: dict[type, Callable] = {
    ast.Match: _match,
    ast.FunctionDef: _function,
    ast.AsyncFunctionDef: _function,
    ast.ClassDef: _class,
    ast.If: _if,
    ast.For: _for,
    ast.AsyncFor: _for,
    ast.While: _while,
    ast.Try: _try,
    ast.TryStar: _try,
    ast.With: _with,
    ast.AsyncWith: _with,
}

"""Building LibCST nodes without their `__init__`: a light tree's nodes (light.py).

A parsed tree is valid by construction, so the per-node validation LibCST runs in `__post_init__`
is wasted on it; so are the whitespace nodes a light tree leaves at their defaults. `constructor`
generates, per class, a function that allocates the node and fills its slots directly: the given
fields from its arguments, every other field with its dataclass default, computed once and shared
(nodes are immutable).
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

import ast

import libcst as cst

from memlint.analysis.syntax.tree import _child_fields


def _slot_setter(cls: type, name: str) -> Callable[[object, object], None]:
    for klass in cls.__mro__:
        descriptor = klass.__dict__.get(name)
        if descriptor is not None and hasattr(descriptor, "__set__"):
            return descriptor.__set__
    raise TypeError(f"{cls.__name__}.{name} is not a slot")


def constructor(cls: type, *names: str, template: cst.CSTNode | None = None) -> Callable[..., Any]:
    """A function of `names` (positional) returning a `cls` with those fields and defaults elsewhere
    (`template`'s values, if given, instead of the class's defaults)."""
    fields = dataclasses.fields(cls)
    known = {field.name for field in fields}
    if not set(names) <= known:
        raise TypeError(f"{cls.__name__} has no field {set(names) - known}")
    env: dict[str, Any] = {"new_": object.__new__, "class_": cls}  # names no field has
    walked = set(_child_fields(cls))
    body = ["    node_ = new_(class_)"]
    for field in fields:
        setter = f"set_{field.name}"
        env[setter] = _slot_setter(cls, field.name)
        if field.name in names:
            body.append(f"    {setter}(node_, {field.name})")
            continue
        if template is not None:
            default = getattr(template, field.name)
        elif field.name in ("lpar", "rpar") and field.default is dataclasses.MISSING:
            default = ()  # a parse's count, set by the translator (a Tuple's default is one pair)
        elif field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
            if isinstance(default, list):
                default = tuple(default)
        else:
            raise TypeError(f"{cls.__name__}.{field.name} has no default")
        if isinstance(default, cst.CSTNode) and field.name in walked:
            # memlint's Tree walks this field: a node of its own, each time (a shared one would
            # have one parent for all).
            env[f"fresh_{field.name}"] = constructor(type(default), template=default)
            body.append(f"    {setter}(node_, fresh_{field.name}())")
            continue
        env[f"default_{field.name}"] = default
        body.append(f"    {setter}(node_, default_{field.name})")
    source = f"def make({', '.join(names)}):\n" + "\n".join(body) + "\n    return node_\n"
    exec(compile(source, f"<light {cls.__name__}>", "exec"), env)  # noqa: S102 -- generated from dataclass fields
    return env["make"]


PARENS = [(), (cst.LeftParen(),), (cst.LeftParen(),) * 2]  # lpar of n parentheses, shared
RPARS = [(), (cst.RightParen(),), (cst.RightParen(),) * 2]


def parens(count: int) -> tuple[tuple, tuple]:
    """Shared (lpar, rpar) sequences for `count` parentheses."""
    if count < len(PARENS):
        return PARENS[count], RPARS[count]
    return (PARENS[1][0],) * count, (RPARS[1][0],) * count


# The node kinds of a light tree, as constructors of their non-whitespace fields.
Module = constructor(cst.Module, "body")
SimpleStatementLine = constructor(cst.SimpleStatementLine, "body")
SimpleStatementSuite = constructor(cst.SimpleStatementSuite, "body")
IndentedBlock = constructor(cst.IndentedBlock, "body")
Expr = constructor(cst.Expr, "value")
Assign = constructor(cst.Assign, "targets", "value")
AssignTarget = constructor(cst.AssignTarget, "target")
AugAssign = constructor(cst.AugAssign, "target", "operator", "value")
AnnAssign = constructor(cst.AnnAssign, "target", "annotation", "value")
Annotation = constructor(cst.Annotation, "annotation")
Return = constructor(cst.Return, "value")
Raise = constructor(cst.Raise, "exc", "cause")
From = constructor(cst.From, "item")
Assert = constructor(cst.Assert, "test", "msg")
Del = constructor(cst.Del, "target")
Pass = constructor(cst.Pass)
Break = constructor(cst.Break)
Continue = constructor(cst.Continue)
Global = constructor(cst.Global, "names")
Nonlocal = constructor(cst.Nonlocal, "names")
NameItem = constructor(cst.NameItem, "name")
Import = constructor(cst.Import, "names")
ImportFrom = constructor(cst.ImportFrom, "module", "names", "relative", "lpar", "rpar")
ImportAlias = constructor(cst.ImportAlias, "name", "asname")
AsName = constructor(cst.AsName, "name")
If = constructor(cst.If, "test", "body", "orelse")
Else = constructor(cst.Else, "body")
For = constructor(cst.For, "target", "iter", "body", "orelse", "asynchronous")
While = constructor(cst.While, "test", "body", "orelse")
Try = constructor(cst.Try, "body", "handlers", "orelse", "finalbody")
TryStar = constructor(cst.TryStar, "body", "handlers", "orelse", "finalbody")
ExceptHandler = constructor(cst.ExceptHandler, "body", "type", "name")
ExceptStarHandler = constructor(cst.ExceptStarHandler, "body", "type", "name")
Finally = constructor(cst.Finally, "body")
With = constructor(cst.With, "items", "body", "asynchronous", "lpar", "rpar")
WithItem = constructor(cst.WithItem, "item", "asname")
FunctionDef = constructor(cst.FunctionDef, "name", "params", "body", "decorators", "returns", "asynchronous")
ClassDef = constructor(cst.ClassDef, "name", "body", "bases", "keywords", "decorators", "lpar", "rpar")
Decorator = constructor(cst.Decorator, "decorator")
Parameters = constructor(
    cst.Parameters, "params", "star_arg", "kwonly_params", "star_kwarg", "posonly_params", "posonly_ind"
)
Param = constructor(cst.Param, "name", "annotation", "default", "star")
Name = constructor(cst.Name, "value")
Integer = constructor(cst.Integer, "value")
Float = constructor(cst.Float, "value")
Imaginary = constructor(cst.Imaginary, "value")
SimpleString = constructor(cst.SimpleString, "value")
ConcatenatedString = constructor(cst.ConcatenatedString, "left", "right")
FormattedString = constructor(cst.FormattedString, "parts", "start", "end")
FormattedStringText = constructor(cst.FormattedStringText, "value")
FormattedStringExpression = constructor(
    cst.FormattedStringExpression, "expression", "conversion", "format_spec", "equal"
)
Ellipsis = constructor(cst.Ellipsis)
Attribute = constructor(cst.Attribute, "value", "attr")
Call = constructor(cst.Call, "func", "args")
Arg = constructor(cst.Arg, "value", "keyword", "star")
Subscript = constructor(cst.Subscript, "value", "slice")
SubscriptElement = constructor(cst.SubscriptElement, "slice")
SubscriptElementWithComma = constructor(cst.SubscriptElement, "slice", "comma")
Index = constructor(cst.Index, "value")
Slice = constructor(cst.Slice, "lower", "upper", "step")
SliceWithSecondColon = constructor(cst.Slice, "lower", "upper", "step", "second_colon")
Colon = constructor(cst.Colon)
BinaryOperation = constructor(cst.BinaryOperation, "left", "operator", "right")
UnaryOperation = constructor(cst.UnaryOperation, "operator", "expression")
BooleanOperation = constructor(cst.BooleanOperation, "left", "operator", "right")
Comparison = constructor(cst.Comparison, "left", "comparisons")
ComparisonTarget = constructor(cst.ComparisonTarget, "operator", "comparator")
IfExp = constructor(cst.IfExp, "test", "body", "orelse")
Lambda = constructor(cst.Lambda, "params", "body")
NamedExpr = constructor(cst.NamedExpr, "target", "value")
Tuple = constructor(cst.Tuple, "elements")
List = constructor(cst.List, "elements")
Set = constructor(cst.Set, "elements")
Dict = constructor(cst.Dict, "elements")
Element = constructor(cst.Element, "value")
StarredElement = constructor(cst.StarredElement, "value")
DictElement = constructor(cst.DictElement, "key", "value")
StarredDictElement = constructor(cst.StarredDictElement, "value")
ListComp = constructor(cst.ListComp, "elt", "for_in")
SetComp = constructor(cst.SetComp, "elt", "for_in")
GeneratorExp = constructor(cst.GeneratorExp, "elt", "for_in")
DictComp = constructor(cst.DictComp, "key", "value", "for_in")
CompFor = constructor(cst.CompFor, "target", "iter", "ifs", "inner_for_in", "asynchronous")
CompIf = constructor(cst.CompIf, "test")
Yield = constructor(cst.Yield, "value")
Await = constructor(cst.Await, "expression")

ASYNC = cst.Asynchronous()
DEFAULT = cst.MaybeSentinel.DEFAULT
# Nodes memlint's Tree walks (analysis/syntax/tree.py) are built per use: a shared one would have
# one parent for all. Shared ones sit in fields the walk skips (operators, `asynchronous`, commas).
Dot = constructor(cst.Dot)
ImportStar = constructor(cst.ImportStar)
ParamSlash = constructor(cst.ParamSlash)
ParamStar = constructor(cst.ParamStar)
BINARY = {
    ast.Add: cst.Add(),
    ast.Sub: cst.Subtract(),
    ast.Mult: cst.Multiply(),
    ast.Div: cst.Divide(),
    ast.FloorDiv: cst.FloorDivide(),
    ast.Mod: cst.Modulo(),
    ast.Pow: cst.Power(),
    ast.LShift: cst.LeftShift(),
    ast.RShift: cst.RightShift(),
    ast.BitOr: cst.BitOr(),
    ast.BitAnd: cst.BitAnd(),
    ast.BitXor: cst.BitXor(),
    ast.MatMult: cst.MatrixMultiply(),
}
AUGMENTED = {
    ast.Add: cst.AddAssign(),
    ast.Sub: cst.SubtractAssign(),
    ast.Mult: cst.MultiplyAssign(),
    ast.Div: cst.DivideAssign(),
    ast.FloorDiv: cst.FloorDivideAssign(),
    ast.Mod: cst.ModuloAssign(),
    ast.Pow: cst.PowerAssign(),
    ast.LShift: cst.LeftShiftAssign(),
    ast.RShift: cst.RightShiftAssign(),
    ast.BitOr: cst.BitOrAssign(),
    ast.BitAnd: cst.BitAndAssign(),
    ast.BitXor: cst.BitXorAssign(),
    ast.MatMult: cst.MatrixMultiplyAssign(),
}
UNARY = {ast.Not: cst.Not(), ast.Invert: cst.BitInvert(), ast.USub: cst.Minus(), ast.UAdd: cst.Plus()}
BOOLEAN = {ast.And: cst.And(), ast.Or: cst.Or()}
COMPARE = {
    ast.Eq: cst.Equal(),
    ast.NotEq: cst.NotEqual(),
    ast.Lt: cst.LessThan(),
    ast.LtE: cst.LessThanEqual(),
    ast.Gt: cst.GreaterThan(),
    ast.GtE: cst.GreaterThanEqual(),
    ast.Is: cst.Is(),
    ast.IsNot: cst.IsNot(),
    ast.In: cst.In(),
    ast.NotIn: cst.NotIn(),
}
LPAR = cst.LeftParen()
RPAR = cst.RightParen()
COMMA = cst.Comma()
Match = constructor(cst.Match, "subject", "cases")
MatchCase = constructor(cst.MatchCase, "pattern", "body", "guard", "whitespace_before_if", "whitespace_after_if")
SPACE = cst.SimpleWhitespace(" ")  # around a guard's `if`: LibCST's default is none
MatchValue = constructor(cst.MatchValue, "value")
MatchSingleton = constructor(cst.MatchSingleton, "value")
MatchList = constructor(cst.MatchList, "patterns", "lbracket", "rbracket")
MatchTuple = constructor(cst.MatchTuple, "patterns")
MatchSequenceElement = constructor(cst.MatchSequenceElement, "value")
MatchStar = constructor(cst.MatchStar, "name")
MatchMapping = constructor(cst.MatchMapping, "elements", "rest")
MatchMappingElement = constructor(cst.MatchMappingElement, "key", "pattern")
MatchClass = constructor(cst.MatchClass, "cls", "patterns", "kwds")
MatchKeywordElement = constructor(cst.MatchKeywordElement, "key", "pattern")
MatchAs = constructor(cst.MatchAs, "pattern", "name")
MatchOr = constructor(cst.MatchOr, "patterns")
MatchOrElement = constructor(cst.MatchOrElement, "pattern", "separator")
BitOr = constructor(cst.BitOr)
LeftSquareBracket = constructor(cst.LeftSquareBracket)
RightSquareBracket = constructor(cst.RightSquareBracket)

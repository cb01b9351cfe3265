"""Expressions of a light tree (light.py): `ast` expressions as LibCST nodes, parentheses and spans included.

LibCST keeps the parentheses around an expression in its `lpar`/`rpar`; `ast` drops them but its
positions exclude them, so they are the `(` right before a node's start and the `)` right after
its end, paired from the inside out. Three kinds of parentheses are not the node's: a call's own
(around its only argument, or a generator that is its only argument), a class's around its only
base, and a `with` statement's around its only item. Tuples and generators are the other way
round: `ast`'s span includes their own parentheses, LibCST's range does not.
"""

from __future__ import annotations

import ast
from typing import Callable

import libcst as cst

from memlint.analysis.syntax import light_nodes as N
from memlint.analysis.syntax.light_source import Source, Untranslated, fstring_pieces

Span = tuple[int, int, int, int]
_SET = object.__setattr__
_NAME = N.Name
_MAYBE_OPENING = "(\n\r\t\f\\"  # what may stand between an expression and a `(` before it


class ExpressionTranslator:
    """Translates the expressions of one module; `spans` gets every node's PositionProvider range."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.source = Source(text)
        self.ascii = self.source.ascii
        self.spans: dict[int, Span] = {}
        self.outer: dict[int, Span] = {}  # id(node) -> its range with its own parentheses, where it has some
        # Where the simple statement being translated starts: no `(` before that is any expression's.
        self.statement_start = -1

    # -- positions -------------------------------------------------------------------------------

    def span_of(self, node: ast.AST) -> Span:
        source = self.source
        if source.ascii:
            return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset  # type: ignore[attr-defined]
        return (
            node.lineno,  # type: ignore[attr-defined]
            source.column(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            node.end_lineno,  # type: ignore[attr-defined]
            source.column(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
        )

    def outer_span(self, node: cst.CSTNode) -> Span:
        """A translated expression's range with its parentheses."""
        return self.outer.get(id(node)) or self.spans[id(node)]

    def at(self, start: int, end: int) -> Span:
        """The span of text[start:end] (character offsets)."""
        position = self.source.position
        return position(start) + position(end)

    # -- expressions -----------------------------------------------------------------------------

    def expr(self, node: ast.expr, owned: int = 0) -> cst.BaseExpression:
        """`node` as LibCST's expression; `owned`: parentheses around it that belong to its parent."""
        kind = type(node)
        source = self.source
        line = node.lineno
        end_line = node.end_lineno
        if self.ascii:
            column = node.col_offset
            end_column = node.end_col_offset
        else:
            column = source.column(line, node.col_offset)
            end_column = source.column(end_line, node.end_col_offset)  # type: ignore[arg-type]
        starts = source.starts
        start = starts[line - 1] + column
        end = starts[end_line - 1] + end_column  # type: ignore[index]
        if kind is ast.Name:
            result = _NAME(node.id)  # type: ignore[attr-defined]
            own = 0
        else:
            handler = _HANDLERS.get(kind)
            if handler is None:
                raise Untranslated(kind.__name__)
            result, own = handler(self, node, start, end)
        text = self.text
        index = start - 1
        while index >= 0 and text[index] == " ":
            index -= 1
        wraps = 0
        if index >= 0 and text[index] in _MAYBE_OPENING and start != self.statement_start:
            opened = source.opening(start, line)
            if opened:
                wraps = source.closing(end, opened)[0]
                if wraps < opened:  # the outermost `(` is not closed right after: not the parent's
                    owned = 0
        count = own + wraps - owned
        span = (line, column, end_line, end_column)
        if count:
            if count < 0:
                raise Untranslated("parentheses")
            lpar, rpar = N.parens(count)
            _SET(result, "lpar", lpar)
            _SET(result, "rpar", rpar)
            outside = wraps - owned  # the node's parentheses outside `ast`'s span
            if outside > 0:
                outer_start = source.opening_at(start, line, outside)
                self.outer[id(result)] = self.at(outer_start, source.closing(end, outside)[1])
            else:
                self.outer[id(result)] = span
        if not own:
            self.spans[id(result)] = span
        return result

    def optional(self, node: ast.expr | None) -> cst.BaseExpression | None:
        return None if node is None else self.expr(node)

    def name(self, value: str, line: int, column: int) -> cst.Name:
        """A Name of a token `ast` gives only as text, at (line, character column)."""
        result = N.Name(value)
        self.spans[id(result)] = (line, column, line, column + len(value))
        return result

    def name_at(self, value: str, offset: int) -> cst.Name:
        line, column = self.source.position(offset)
        return self.name(value, line, column)

    def find_name(self, value: str, start: int) -> tuple[cst.Name, int]:
        """The Name of the next token `value` from offset `start` on (only punctuation and spaces
        between), and the offset after it."""
        found = self.text.find(value, start)
        if found < 0:
            raise Untranslated("name")
        return self.name_at(value, found), found + len(value)

    # -- parts shared with statements ------------------------------------------------------------

    def arguments(self, args: list[ast.expr], keywords: list[ast.keyword]) -> list[cst.Arg]:
        """A call's (or a class's) arguments in source order; the only positional one's parentheses
        next to the call's are the call's."""
        sole = len(args) + len(keywords) == 1
        items: list = args
        if keywords:
            items = args + keywords
            if args:
                items.sort(key=_position)
        out = []
        for item in items:
            kind = type(item)
            if kind is ast.keyword:
                value = self.expr(item.value)  # type: ignore[attr-defined]
                if item.arg is None:  # type: ignore[attr-defined]
                    arg = N.Arg(value, None, "**")
                else:
                    span = self.span_of(item)
                    arg = N.Arg(value, self.name(item.arg, span[0], span[1]), "")  # type: ignore[attr-defined]
                self.spans[id(arg)] = self.span_of(item)
            elif kind is ast.Starred:
                value = self.expr(item.value)  # type: ignore[attr-defined]
                arg = N.Arg(value, None, "*")
                self.spans[id(arg)] = self.span_of(item)
            else:
                value = self.expr(item, 1 if sole else 0)  # type: ignore[arg-type]
                arg = N.Arg(value, None, "")
                self.spans[id(arg)] = self.outer_span(value)
            out.append(arg)
        return out

    def parameters(self, node: ast.arguments) -> cst.Parameters:
        positional = node.posonlyargs + node.args
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(node.defaults)) + list(node.defaults)
        params = [self.param(arg, default, "") for arg, default in zip(positional, defaults)]
        posonly = params[: len(node.posonlyargs)]
        star_arg: object = N.DEFAULT
        if node.vararg is not None:
            star_arg = self.param(node.vararg, None, "*")
        elif node.kwonlyargs:
            star_arg = N.ParamStar()
        kwonly = [self.param(arg, default, "") for arg, default in zip(node.kwonlyargs, node.kw_defaults)]
        star_kwarg = self.param(node.kwarg, None, "**") if node.kwarg is not None else None
        return N.Parameters(
            params[len(posonly) :], star_arg, kwonly, star_kwarg, posonly, N.ParamSlash() if posonly else N.DEFAULT
        )

    def param(self, arg: ast.arg, default: ast.expr | None, star: str) -> cst.Param:
        line, column = arg.lineno, self.source.column(arg.lineno, arg.col_offset)
        name = self.name(arg.arg, line, column)
        annotation = N.Annotation(self.expr(arg.annotation)) if arg.annotation is not None else None
        result = N.Param(name, annotation, self.optional(default), star)
        if star:
            offset = self.source.starts[line - 1] + column - 1
            text = self.text
            while text[offset] in " \t\f":
                offset -= 1
            offset -= len(star) - 1
            if text[offset : offset + len(star)] != star:
                raise Untranslated("star")
            self.spans[id(result)] = self.source.position(offset) + (line, column + len(arg.arg))
        else:
            self.spans[id(result)] = self.spans[id(name)]
        return result

    def comprehension(self, generators: list[ast.comprehension]) -> cst.CompFor:
        """The `for ... in ... if ...` clauses, each CompFor holding the next as its `inner_for_in`."""
        built = []
        for generator in generators:
            target = self.expr(generator.target)
            iterator = self.expr(generator.iter)
            ifs = [N.CompIf(self.expr(test)) for test in generator.ifs]
            built.append((target, iterator, ifs, N.ASYNC if generator.is_async else None))
        chain = None
        for target, iterator, ifs, asynchronous in reversed(built):
            chain = N.CompFor(target, iterator, ifs, chain, asynchronous)
        return chain  # type: ignore[return-value]

    def elements(self, items: list[ast.expr]) -> list[cst.BaseElement]:
        out = []
        for item in items:
            if type(item) is ast.Starred:
                element = N.StarredElement(self.expr(item.value))
                self.spans[id(element)] = self.span_of(item)
            else:
                value = self.expr(item)
                element = N.Element(value)
                self.spans[id(element)] = self.outer_span(value)
            out.append(element)
        return out


def _position(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset  # type: ignore[attr-defined]


def _constant(self: ExpressionTranslator, node: ast.Constant, start: int, end: int) -> tuple:
    value = node.value
    kind = type(value)
    if kind is str or kind is bytes:
        return _strings(self, node, start, end)
    if kind is int:
        return N.Integer(self.text[start:end]), 0
    if kind is float:
        return N.Float(self.text[start:end]), 0
    if kind is complex:
        return N.Imaginary(self.text[start:end]), 0
    if value is Ellipsis:
        return N.Ellipsis(), 0
    return N.Name(_KEYWORDS[value]), 0


_KEYWORDS = {True: "True", False: "False", None: "None"}


def _strings(self: ExpressionTranslator, node: ast.Constant | ast.JoinedStr, start: int, end: int) -> tuple:
    text = self.text
    tokens = self.source.string_tokens(start, end)
    if len(tokens) == 1 and type(node) is ast.Constant:
        return N.SimpleString(text[start:end]), 0
    values = iter(_formatted_values(node.values) if type(node) is ast.JoinedStr else ())
    parts = []
    for token_start, token_end, prefix in tokens:
        if "f" in prefix or "F" in prefix:
            part = _fstring(self, token_start, token_end, prefix, values)
        else:
            part = N.SimpleString(text[token_start:token_end])
        self.spans[id(part)] = self.at(token_start, token_end)
        parts.append(part)
    if next(values, None) is not None:
        raise Untranslated("f-string values")
    result = parts[-1]
    for index in range(len(parts) - 2, -1, -1):
        result = N.ConcatenatedString(parts[index], result)
        self.spans[id(result)] = self.at(tokens[index][0], end)
    self.spans.pop(id(result), None)  # the whole one's span is `ast`'s, set by `expr`
    return result, 0


def _formatted_values(values: list[ast.expr]) -> list[ast.FormattedValue]:
    """The replacement fields of an f-string in source order (those of format specs after their field's)."""
    out = []
    for value in values:
        if type(value) is ast.FormattedValue:
            out.append(value)
            if value.format_spec is not None:
                out.extend(_formatted_values(value.format_spec.values))  # type: ignore[attr-defined]
    return out


def _fstring(self: ExpressionTranslator, start: int, end: int, prefix: str, values) -> cst.FormattedString:
    text = self.text
    quote_start = start + len(prefix)
    quote = text[quote_start : quote_start + 3]
    if quote not in ('"""', "'''"):
        quote = text[quote_start]
    body_start, body_end = quote_start + len(quote), end - len(quote)
    pieces, stop = fstring_pieces(text, body_start, body_end)
    if stop != body_end:
        raise Untranslated("f-string")
    return N.FormattedString(_fstring_parts(self, pieces, values), text[start:body_start], quote)


def _fstring_parts(self: ExpressionTranslator, pieces: list, values) -> list:
    text = self.text
    parts = []
    for piece in pieces:
        if piece[0] == "text":
            parts.append(N.FormattedStringText(text[piece[1] : piece[2]]))
            continue
        _, expression_start, expression_end, brace, brace_end, conversion, equal, spec = piece
        value = next(values, None)
        if value is None:
            raise Untranslated("f-string values")
        inner = value.value
        inner_start = self.source.offset(inner.lineno, inner.col_offset)
        if not expression_start <= inner_start < expression_end:
            raise Untranslated("f-string position")  # Python 3.11 misplaces some
        expression = self.expr(inner)
        format_spec = _fstring_parts(self, spec, values) if spec is not None else None
        if equal:  # `{x = }`: the spaces are part of the text the f-string produces
            parts.append(_debugging(self, expression, expression_start, expression_end, conversion, format_spec))
        else:
            parts.append(N.FormattedStringExpression(expression, conversion, format_spec, None))
    return parts


def _debugging(
    self: ExpressionTranslator, expression: cst.BaseExpression, start: int, equal: int, conversion, format_spec
) -> cst.FormattedStringExpression:
    """A self-documenting replacement field (`{x=}`), with the spaces around its expression and `=`."""
    text = self.text
    outer = self.outer_span(expression)
    expression_start = self.source.starts[outer[0] - 1] + outer[1]
    expression_end = self.source.starts[outer[2] - 1] + outer[3]
    after = equal + 1
    while text[after] in " \t":
        after += 1
    spaces = [text[start:expression_start], text[expression_end:equal], text[equal + 1 : after]]
    if any(space.strip(" \t") for space in spaces):
        raise Untranslated("f-string debugging spaces")
    before, between, after_equal = (cst.SimpleWhitespace(space) for space in spaces)
    return cst.FormattedStringExpression(
        expression,
        conversion,
        format_spec,
        whitespace_before_expression=before,
        whitespace_after_expression=cst.SimpleWhitespace(""),
        equal=cst.AssignEqual(whitespace_before=between, whitespace_after=after_equal),
    )




def _attribute(self: ExpressionTranslator, node: ast.Attribute, start: int, end: int) -> tuple:
    value = self.expr(node.value)
    line = node.end_lineno
    column = end - self.source.starts[line - 1]  # type: ignore[index]
    attr = self.name(node.attr, line, column - len(node.attr))  # type: ignore[arg-type]
    return N.Attribute(value, attr), 0


def _call(self: ExpressionTranslator, node: ast.Call, start: int, end: int) -> tuple:
    func = self.expr(node.func)
    return N.Call(func, self.arguments(node.args, node.keywords)), 0


def _subscript(self: ExpressionTranslator, node: ast.Subscript, start: int, end: int) -> tuple:
    value = self.expr(node.value)
    index = node.slice
    if type(index) is ast.Tuple and index.elts and not _parenthesized(self, index):
        items = index.elts
    else:
        items = [index]
    if len(items) == 1 and items[0] is not index:  # `a[1,]`: the comma makes the key a tuple
        return N.Subscript(value, [N.SubscriptElementWithComma(N.Index(self.expr(items[0])), N.COMMA)]), 0
    elements = []
    for item in items:
        if type(item) is ast.Slice:
            inner = _slice(self, item)
        elif type(item) is ast.Starred:
            raise Untranslated("starred subscript")
        else:
            inner = N.Index(self.expr(item))
        elements.append(N.SubscriptElement(inner))
    return N.Subscript(value, elements), 0


def _slice(self: ExpressionTranslator, node: ast.Slice) -> cst.Slice:
    """`lower:upper:step`; LibCST keeps a second colon (`a[1::]`) as a node, which memlint's Tree walks."""
    lower, upper, step = self.optional(node.lower), self.optional(node.upper), self.optional(node.step)
    if step is None:
        source, text = self.source, self.text
        end = source.offset(node.end_lineno, node.end_col_offset)  # type: ignore[arg-type]
        cursor = _outer_end(source, node.lower) if node.lower else source.offset(node.lineno, node.col_offset)
        cursor = source.gap_end(cursor)
        if text[cursor] != ":":
            raise Untranslated("slice")
        cursor = source.gap_end(_outer_end(source, node.upper) if node.upper else cursor + 1)
        if cursor >= end or text[cursor] != ":":
            return N.Slice(lower, upper, None)
    return N.SliceWithSecondColon(lower, upper, step, N.Colon())


def _parenthesized(self: ExpressionTranslator, node: ast.Tuple) -> bool:
    """Is this tuple in its own parentheses (which `ast`'s span then includes)?"""
    text = self.text
    source = self.source
    start = source.offset(node.lineno, node.col_offset)
    end = source.offset(node.end_lineno, node.end_col_offset)  # type: ignore[arg-type]
    if not node.elts:
        return True
    if text[start] != "(" or text[end - 1] != ")":
        return False
    return _outer_end(source, node.elts[-1]) < end


def _outer_end(source: Source, node: ast.expr) -> int:
    """The offset after `node` and its own parentheses (those that open right before it too)."""
    end = source.offset(node.end_lineno, node.end_col_offset)  # type: ignore[arg-type]
    opened = source.opening(source.offset(node.lineno, node.col_offset), node.lineno)
    return source.closing(end, opened)[1] if opened else end


def _binary(self: ExpressionTranslator, node: ast.BinOp, start: int, end: int) -> tuple:
    left = self.expr(node.left)
    return N.BinaryOperation(left, N.BINARY[type(node.op)], self.expr(node.right)), 0


def _unary(self: ExpressionTranslator, node: ast.UnaryOp, start: int, end: int) -> tuple:
    return N.UnaryOperation(N.UNARY[type(node.op)], self.expr(node.operand)), 0


def _boolean(self: ExpressionTranslator, node: ast.BoolOp, start: int, end: int) -> tuple:
    operator = N.BOOLEAN[type(node.op)]
    values = node.values
    result = self.expr(values[0])
    first = self.outer_span(result)
    for value in values[1:-1]:
        right = self.expr(value)
        result = N.BooleanOperation(result, operator, right)
        self.spans[id(result)] = first[:2] + self.outer_span(right)[2:]
    return N.BooleanOperation(result, operator, self.expr(values[-1])), 0


def _compare(self: ExpressionTranslator, node: ast.Compare, start: int, end: int) -> tuple:
    left = self.expr(node.left)
    targets = [N.ComparisonTarget(N.COMPARE[type(op)], self.expr(c)) for op, c in zip(node.ops, node.comparators)]
    return N.Comparison(left, targets), 0


def _if_exp(self: ExpressionTranslator, node: ast.IfExp, start: int, end: int) -> tuple:
    body = self.expr(node.body)
    test = self.expr(node.test)
    return N.IfExp(test, body, self.expr(node.orelse)), 0


def _lambda(self: ExpressionTranslator, node: ast.Lambda, start: int, end: int) -> tuple:
    params = self.parameters(node.args)
    return N.Lambda(params, self.expr(node.body)), 0


def _named(self: ExpressionTranslator, node: ast.NamedExpr, start: int, end: int) -> tuple:
    target = self.expr(node.target)
    return N.NamedExpr(target, self.expr(node.value)), 0


def _tuple(self: ExpressionTranslator, node: ast.Tuple, start: int, end: int) -> tuple:
    elements = self.elements(node.elts)
    result = N.Tuple(elements)
    if not _parenthesized(self, node):
        return result, 0
    if elements:
        first = self.spans[id(elements[0])]
        last_end = _outer_end(self.source, node.elts[-1])
        after = self.source.gap_end(last_end)
        if self.text[after] == ",":
            last_end = after + 1
        self.spans[id(result)] = first[:2] + self.source.position(last_end)
    else:
        self.spans[id(result)] = self.at(start + 1, start + 1)
    return result, 1


def _list(self: ExpressionTranslator, node: ast.List, start: int, end: int) -> tuple:
    return N.List(self.elements(node.elts)), 0


def _set(self: ExpressionTranslator, node: ast.Set, start: int, end: int) -> tuple:
    return N.Set(self.elements(node.elts)), 0


def _dict(self: ExpressionTranslator, node: ast.Dict, start: int, end: int) -> tuple:
    elements = []
    for key, value in zip(node.keys, node.values):
        if key is None:
            element = N.StarredDictElement(self.expr(value))
        else:
            element = N.DictElement(self.expr(key), self.expr(value))
        elements.append(element)
    return N.Dict(elements), 0


def _list_comp(self: ExpressionTranslator, node: ast.ListComp, start: int, end: int) -> tuple:
    elt = self.expr(node.elt)
    return N.ListComp(elt, self.comprehension(node.generators)), 0


def _set_comp(self: ExpressionTranslator, node: ast.SetComp, start: int, end: int) -> tuple:
    elt = self.expr(node.elt)
    return N.SetComp(elt, self.comprehension(node.generators)), 0


def _dict_comp(self: ExpressionTranslator, node: ast.DictComp, start: int, end: int) -> tuple:
    key = self.expr(node.key)
    value = self.expr(node.value)
    return N.DictComp(key, value, self.comprehension(node.generators)), 0


def _generator(self: ExpressionTranslator, node: ast.GeneratorExp, start: int, end: int) -> tuple:
    if self.text[start] != "(" or self.text[end - 1] != ")":
        raise Untranslated("generator span")
    elt = self.expr(node.elt)
    result = N.GeneratorExp(elt, self.comprehension(node.generators))
    last = node.generators[-1]
    last_end = _outer_end(self.source, last.ifs[-1] if last.ifs else last.iter)
    self.spans[id(result)] = self.outer_span(elt)[:2] + self.source.position(last_end)
    return result, 1


def _yield(self: ExpressionTranslator, node: ast.Yield, start: int, end: int) -> tuple:
    return N.Yield(self.optional(node.value)), 0


def _yield_from(self: ExpressionTranslator, node: ast.YieldFrom, start: int, end: int) -> tuple:
    return N.Yield(N.From(self.expr(node.value))), 0


def _await(self: ExpressionTranslator, node: ast.Await, start: int, end: int) -> tuple:
    return N.Await(self.expr(node.value)), 0


_HANDLERS: dict[type, Callable] = {
    ast.Constant: _constant,
    ast.JoinedStr: _strings,
    ast.Attribute: _attribute,
    ast.Call: _call,
    ast.Subscript: _subscript,
    ast.BinOp: _binary,
    ast.UnaryOp: _unary,
    ast.BoolOp: _boolean,
    ast.Compare: _compare,
    ast.IfExp: _if_exp,
    ast.Lambda: _lambda,
    ast.NamedExpr: _named,
    ast.Tuple: _tuple,
    ast.List: _list,
    ast.Set: _set,
    ast.Dict: _dict,
    ast.ListComp: _list_comp,
    ast.SetComp: _set_comp,
    ast.DictComp: _dict_comp,
    ast.GeneratorExp: _generator,
    ast.Yield: _yield,
    ast.YieldFrom: _yield_from,
    ast.Await: _await,
}

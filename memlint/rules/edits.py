"""Edits that several rules' fixes make to a call: an argument added after the last one."""

from __future__ import annotations

import libcst as cst


def append_keyword(call: cst.Call, keyword: str, value: cst.BaseExpression) -> cst.Call:
    """`call` with `keyword=value` added as its last argument, keeping a trailing
    comma, comments and one argument per line where the call has them."""
    new = cst.Arg(
        value=value,
        keyword=cst.Name(keyword),
        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace("")),
    )
    return call.with_changes(args=append_element(list(call.args), new, call.whitespace_before_args))


def append_element(elements: list, new, opening: cst.BaseParenthesizableWhitespace) -> list:
    """`elements` (call arguments or dict elements) with `new` after the last one."""
    if not elements:
        return [new]
    last = elements[-1]
    trailing = isinstance(last.comma, cst.Comma)
    if len(elements) > 1 and isinstance(elements[-2].comma, cst.Comma):
        between = _plain(elements[-2].comma.whitespace_after)
    elif isinstance(opening, cst.ParenthesizedWhitespace):
        between = _plain(opening)
    else:
        between = cst.SimpleWhitespace(" ")
    if trailing:
        old = last.comma.whitespace_after
        if isinstance(old, cst.ParenthesizedWhitespace) and isinstance(between, cst.ParenthesizedWhitespace):
            # `b,  # note` then `)`: the comment stays on b's line, the new element
            # takes the line break before the closing bracket
            kept = old.with_changes(indent=between.indent, last_line=between.last_line)
            closing: cst.BaseParenthesizableWhitespace = _plain(old)
        else:
            kept, closing = between, old
        elements[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=kept))
        return [*elements, new.with_changes(comma=cst.Comma(whitespace_after=closing))]
    if isinstance(last, cst.Arg):
        # the space before `)` moves behind the new argument
        elements[-1] = last.with_changes(comma=cst.Comma(whitespace_after=between), whitespace_after_arg=cst.SimpleWhitespace(""))
        return [*elements, new.with_changes(whitespace_after_arg=last.whitespace_after_arg)]
    elements[-1] = last.with_changes(comma=cst.Comma(whitespace_after=between))
    return [*elements, new]


def _plain(whitespace: cst.BaseParenthesizableWhitespace) -> cst.BaseParenthesizableWhitespace:
    """The same line break and indentation, without a comment or blank lines."""
    if isinstance(whitespace, cst.ParenthesizedWhitespace):
        return whitespace.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[])
    return whitespace

"""Parse a module without re-validating what LibCST's native parser built.

Every LibCST node validates itself on construction (`CSTNode.__post_init__`
calls `_validate`): worth it for nodes a program builds, wasted on a tree the
parser built from valid source, where it costs about a fifth of the parse.
`parse_module` turns validation off for the nodes built by the calling thread
while it parses; every other node -- those memlint's fixes build, those built
by another thread meanwhile (the language server lints and scans in two) --
is validated as before. tests/test_parsing.py fails if a LibCST upgrade
changes what this relies on.
"""

from __future__ import annotations

import ast
import threading
import warnings

import libcst as cst
from libcst._nodes.base import CSTNode

_parsing: set[int] = set()  # the threads inside `parse_module` now
_get_ident = threading.get_ident
_validating_post_init = CSTNode.__post_init__


def _post_init(self: CSTNode) -> None:
    if _get_ident() not in _parsing:
        self._validate()


def install() -> None:
    """Route node construction through `_post_init` (idempotent; validation is unchanged outside a parse)."""
    CSTNode.__post_init__ = _post_init  # type: ignore[method-assign]


def parse_module(text: str) -> cst.Module:
    """`libcst.parse_module(text)`, without validating the nodes the parser builds."""
    ident = _get_ident()
    _parsing.add(ident)
    try:
        return cst.parse_module(text)
    finally:
        _parsing.discard(ident)


install()


def python_ast(text: str) -> ast.Module:
    """CPython's own parse of `text`, without the SyntaxWarnings it prints for the user's code
    (`"\\d"` on Python 3.12+): not memlint's to report, nor to print. Raises what `ast.parse` raises."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.parse(text)

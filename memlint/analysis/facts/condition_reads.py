"""What a condition is computed from, and the conditions a node runs under.

A flag's name says nothing of what it tests: `use_scaler` may be `dtype ==
torch.float16` or a command-line switch. `condition_reads` follows a test
through the file's assignments (to names and to `self`'s attributes) to what it
reads: each name or attribute, keyed by where it is defined, and DTYPE where a
torch dtype is read; and whether some value read is out of sight (a parameter,
an attribute of an object the file does not build, a name nothing binds), so
that what decides it is an assumption. `tests_around` gives the tests of the
`if`s (and `x if ... else y`) of its function that a node runs under.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import code

if TYPE_CHECKING:
    from memlint.analysis.model import SemanticModel

DTYPE = "dtype"  # what `condition_reads` says of an expression that reads a torch dtype
_DTYPES = {"torch.float16", "torch.half", "torch.bfloat16"}
_DEPTH = 3  # assignments followed from a test to what it reads


def tests_around(model: "SemanticModel", node: cst.CSTNode) -> list[cst.BaseExpression]:
    """The tests of the `if`s (and `x if ... else y`) of its function that `node` runs under."""
    tests = []
    for anc in model.tree.ancestors(node):
        if isinstance(anc, (cst.FunctionDef, cst.ClassDef, cst.Module)):
            break
        if isinstance(anc, (cst.If, cst.IfExp)) and not model.tree.contains(anc.test, node):
            tests.append(anc.test)
    return tests


def condition_reads(
    model: "SemanticModel", expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0
) -> tuple[set, bool]:
    """What `expr` is computed from, through the file's assignments (to names and to `self`'s
    attributes): each name or attribute read, keyed by where it is defined, DTYPE where a torch
    dtype is read; and whether some value read is out of sight (a parameter, an attribute of
    an object the file does not build, a name nothing binds)."""
    read: set = set()
    out_of_sight = False
    stack: list[cst.CSTNode] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.Name, cst.Attribute)):
            resolved = model.imports.resolve(node)
            if resolved in _DTYPES:
                read.add(DTYPE)
                continue
            root = node
            while isinstance(root, cst.Attribute):
                root = root.value
            if not isinstance(root, cst.Name):
                stack.append(root)  # `get_args().fp16`: what the call reads
                out_of_sight = True
                continue
            if root.value in model.imports.aliases or root.value in ("True", "False", "None"):
                read.add(resolved)  # a library's function or constant: its meaning is known
                continue
            key, values, seen = _defined(model, node, root, at)
            read.add(key)
            if not seen or depth >= _DEPTH:
                out_of_sight = True
                continue
            for value in values:
                inner, unseen = condition_reads(model, value, value, depth + 1)
                read |= inner
                out_of_sight |= unseen
        elif not isinstance(node, (cst.SimpleString, cst.Integer, cst.Float)):
            stack.extend(node.children)
    return read, out_of_sight


def _defined(
    model: "SemanticModel", node: cst.BaseExpression, root: cst.Name, at: cst.CSTNode
) -> tuple[tuple, list, bool]:
    """Where `node` (a name, or an attribute chain on the name `root`) is defined, as a key; the
    values the file assigns it; whether the file shows them (False: a parameter, an attribute
    of an object the file does not fill, a name nothing binds)."""
    if isinstance(node, cst.Attribute) and root.value == "self" and node.value is root:
        values = model.provenance.self_attribute_values(node.attr.value, at)
        return ("self", model.self_family(at), node.attr.value), values, bool(values)
    scope = model.scope_of(at)
    where: cst.CSTNode = scope
    if root.value in model.params(scope):
        return (id(scope), code(node)), [], False
    bindings = model.bindings(scope, root.value)
    if not bindings:
        where, bindings = model.module, model.bindings(model.module, root.value)
    if node is not root or not bindings:  # an attribute of a value the file holds: not filled here
        return (id(where), code(node)), [], False
    return (id(where), root.value), [b.value for b in bindings if b.value is not None], all(
        b.value is not None for b in bindings
    )

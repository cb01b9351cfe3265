"""Resolve names through imports: `T.cuda.empty_cache` -> `torch.cuda.empty_cache`."""

from __future__ import annotations

import libcst as cst

from memlint.analysis.syntax.tree import Tree


def dotted(expr: cst.BaseExpression) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    # Exact types (LibCST's node classes have no subclasses): isinstance against their ABCs is slow.
    kind = type(expr)
    if kind is cst.Name:  # most chains are one name
        return expr.value
    if kind is not cst.Attribute:
        return None
    parts: list[str] = []
    while type(expr) is cst.Attribute:
        parts.append(expr.attr.value)
        expr = expr.value
    if type(expr) is not cst.Name:
        return None
    parts.append(expr.value)
    parts.reverse()
    return ".".join(parts)


def _getattr_target(value: cst.BaseExpression) -> cst.BaseExpression:
    """What `getattr(obj, name[, default])` reads, as an attribute chain: `obj.name` for a constant
    name; for a name only known at run time, the default (`getattr(torch, device_type, torch.cuda)`
    is a device module like `torch.cuda`, whose functions it stands for). Anything else as is."""
    if not (type(value) is cst.Call and type(value.func) is cst.Name and value.func.value == "getattr"):
        return value
    args = [a.value for a in value.args if a.keyword is None and not a.star]
    if len(args) < 2 or dotted(args[0]) is None:
        return value
    name = args[1].evaluated_value if isinstance(args[1], cst.SimpleString) else None
    if isinstance(name, str) and name.isidentifier():
        return cst.Attribute(value=args[0], attr=cst.Name(name))
    return args[2] if len(args) == 3 else value


def _module_name(node: cst.BaseExpression) -> str:
    return dotted(node) or ""


class Imports:
    """Local name -> fully qualified name, from every import in the file."""

    def __init__(self, tree: Tree) -> None:
        self.aliases: dict[str, str] = {}
        # id(expression) -> (the expression, what it resolves to), once every alias is known: 183k
        # calls for 21k expressions on the benchmark corpus. The expression is kept, so that its id
        # cannot be reused by another (one built for a question, then freed) while this lives.
        self._resolved: dict[int, tuple[cst.BaseExpression, str | None]] = {}
        for node in tree.by_type.get(cst.Import, ()):
            for alias in node.names:
                full = _module_name(alias.name)
                if alias.asname is not None:
                    self.aliases[dotted(alias.asname.name) or full] = full
                else:
                    root = full.split(".")[0]
                    self.aliases[root] = root
        self.relative: dict[str, tuple[int, str]] = {}  # local -> (dots, `module.name`) for `from ..m import x`
        self.star: list[tuple[int, str]] = []  # (dots, module) for `from .m import *`, in order
        for node in tree.by_type.get(cst.ImportFrom, ()):
            if isinstance(node.names, cst.ImportStar):
                if node.module is not None:
                    self.star.append((len(node.relative), _module_name(node.module)))
                continue
            if node.relative:
                base = _module_name(node.module) if node.module is not None else ""
                for alias in node.names:
                    name = _module_name(alias.name)
                    local = dotted(alias.asname.name) if alias.asname is not None else name
                    if local:
                        self.relative[local] = (len(node.relative), f"{base}.{name}" if base else name)
                continue
            if node.module is None:
                continue
            base = _module_name(node.module)
            for alias in node.names:
                name = _module_name(alias.name)
                local = dotted(alias.asname.name) if alias.asname is not None else name
                if local:
                    self.aliases[local] = f"{base}.{name}"

        self._add_assigned_aliases(tree)

    def _add_assigned_aliases(self, tree: Tree) -> None:
        """`acc = torch.cuda`, `ckpt = torch.utils.checkpoint.checkpoint`: a name
        bound once, to an imported module or function, is another name for it."""
        assigned: dict[str, list[cst.BaseExpression]] = {}
        for node in tree.by_type.get(cst.Assign, ()):
            for target in node.targets:
                if type(target.target) is cst.Name:  # exact types: no ABC instance checks
                    assigned.setdefault(target.target.value, []).append(node.value)
        for name, values in assigned.items():
            value = _getattr_target(values[0]) if len(values) == 1 else None
            if len(values) != 1 or name in self.aliases or type(value) is not cst.Attribute:
                continue
            chain = dotted(value)
            root = chain.split(".")[0] if chain else None
            if root in self.aliases and root != name:
                self.aliases[name] = self._resolve(value) or chain  # not remembered: the aliases still change

    def resolve(self, expr: cst.BaseExpression) -> str | None:
        """The qualified name of a Name/Attribute chain.

        A root that no import binds is kept as written, so code that uses
        `torch.no_grad()` without a visible import (star imports, notebooks
        exported to scripts) still resolves.
        """
        known = self._resolved.get(id(expr))
        if known is not None:
            return known[1]
        name = self._resolve(expr)
        self._resolved[id(expr)] = (expr, name)
        return name

    def _resolve(self, expr: cst.BaseExpression) -> str | None:
        name = dotted(expr)
        return None if name is None else self.qualify(name)

    def qualify(self, name: str) -> str:
        """The qualified name of a dotted name as written (`TrainPipelineSparseDist` of an annotation)."""
        root, _, rest = name.partition(".")
        full = self.aliases.get(root, root)
        return f"{full}.{rest}" if rest else full

    def imports_torch(self) -> bool:
        return any(v == "torch" or v.startswith("torch.") for v in self.aliases.values())

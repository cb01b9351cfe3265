"""`FileContext`: one file's tree, imports, scopes and grad mode, the layer the analyses build on."""

from __future__ import annotations

import libcst as cst

from memlint.analysis.frameworks import Frameworks
from memlint.analysis.grad_mode import Grad, GradMode
from memlint.analysis.imports import Imports
from memlint.analysis.scopes import Scopes
from memlint.analysis.tree import Tree


class FileContext(Scopes):
    def __init__(self, module: cst.Module, path: str = "<memory>", tree: Tree | None = None) -> None:
        super().__init__(module, tree if tree is not None else Tree(module))
        self.path = path
        self.imports = Imports(self.tree)
        self.frameworks = Frameworks(self, self.imports)
        self.grad = GradMode(self, self.imports, self.frameworks)

    def grad_state(self, node: cst.CSTNode) -> Grad:
        return self.grad.state(node)

"""`FileContext`: one file's tree, imports, scopes and grad mode, the layer the analyses build on."""

from __future__ import annotations

import ast

import libcst as cst
from libcst._position import CodeRange

from memlint.analysis.flow.project_facts import ProjectFacts
from memlint.analysis.regions.frameworks import Frameworks
from memlint.analysis.regions.grad import Grad
from memlint.analysis.regions.grad_mode import GradMode
from memlint.analysis.regions.memo import Memo
from memlint.analysis.syntax.imports import Imports
from memlint.analysis.syntax.calls import Calls
from memlint.analysis.syntax.positions import Positions, SpanPositions
from memlint.analysis.syntax.as_written import Span, source_lines
from memlint.analysis.syntax.scopes import Scopes
from memlint.analysis.syntax.tree import Tree


class FileContext(Scopes):
    def __init__(
        self,
        module: cst.Module,
        path: str = "<memory>",
        tree: Tree | None = None,
        statement_lines: dict[int, int] | None = None,
        text: str | None = None,
        spans: dict[int, Span] | None = None,
        parsed: ast.Module | None = None,
        project: ProjectFacts | None = None,
    ) -> None:
        """`statement_lines`: id(top-level statement) -> first line, where the parser knows them;
        `text`: the text `module` was parsed from, where the caller has it (positions start from it);
        `spans`: every node's range, for a light tree (analysis/syntax/light.py: its whitespace is
        not the source's, so positions cannot come from generating its code); `parsed`: CPython's
        parse of `text`, where the caller has one; `project`: what the project's other files say
        about the functions and classes this file calls (flow/project_facts.py)."""
        super().__init__(module, tree if tree is not None else Tree(module, statements=False))
        self.path = path
        self.project = project if project is not None else ProjectFacts()
        self.imports = Imports(self.tree)
        self.calls = Calls(self)
        self.frameworks = Frameworks(self, self.imports, self.project)
        self.grad = GradMode(self, self.calls, self.imports, self.frameworks)
        self.positions: Positions | SpanPositions = (
            Positions(module, self.tree.parent_of, statement_lines, text, parsed)
            if spans is None
            else SpanPositions(spans)
        )
        self.statement_lines = statement_lines
        self._text = text
        self.memo = Memo()  # the answers of its questions that may ask themselves back

    def range_of(self, node: cst.CSTNode) -> CodeRange:
        """Where `node` is (1-based lines, 0-based columns), for analyses that put a line in a
        message or a summary: the code of its top-level statement is generated once, on first use."""
        return self.positions.range_of(node)

    def line_text(self, node: cst.CSTNode) -> str:
        """The source line where `node` starts, its comment included (where a suppression comment of
        a finding there lives)."""
        lines = self.__dict__.get("_lines")
        if lines is None:
            lines = self.__dict__["_lines"] = source_lines(self._text if self._text is not None else self.module.code)
        row = self.range_of(node).start.line
        return lines[row - 1] if 0 < row <= len(lines) else ""

    def local_callees(self, call: cst.Call) -> list[cst.FunctionDef]:
        return self.calls.local_callees(call)

    def running_callees(self, call: cst.Call) -> list[cst.FunctionDef]:
        """The functions of this file that `call` runs: those it calls, and those it is handed as
        values for the callee to run (`map_batches(fun=self.forward_batch)`)."""
        return self.calls.local_callees(call) + self.calls.passed_callables(call)

    def call_sites(self) -> dict[cst.FunctionDef, list[cst.Call]]:
        return self.calls.call_sites()

    def grad_state(self, node: cst.CSTNode) -> Grad:
        return self.grad.state(node)

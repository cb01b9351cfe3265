"""`SemanticModel`: everything the rules may ask about one file, computed lazily."""

from __future__ import annotations

import ast
from functools import cached_property

import libcst as cst

from memlint.analysis.facts.autograd_functions import AutogradFunctions
from memlint.analysis.context import FileContext
from memlint.analysis.facts.cuda_init import CudaInit
from memlint.analysis.facts.metrics import Metrics
from memlint.analysis.flow.summaries import Summaries
from memlint.analysis.regions.carried import CarriedState
from memlint.analysis.regions.loops import Loops
from memlint.analysis.regions.model_runs import EvalRegions, ModelRuns
from memlint.analysis.flow.handed import Handed
from memlint.analysis.flow.module_facts import ModuleFacts
from memlint.analysis.flow.project_facts import ProjectFacts
from memlint.analysis.flow.provenance import Provenance
from memlint.analysis.flow.sizes import Sizes
from memlint.analysis.syntax.scopes import Binding, Scope
from memlint.analysis.syntax.tree import Tree

__all__ = ["Binding", "Scope", "SemanticModel"]


class SemanticModel(FileContext):
    def __init__(
        self,
        module: cst.Module,
        path: str = "<memory>",
        tree: Tree | None = None,
        statement_lines: dict[int, int] | None = None,
        text: str | None = None,
        spans: dict[int, tuple[int, int, int, int]] | None = None,
        parsed: ast.Module | None = None,
        project: ProjectFacts | None = None,
    ) -> None:
        super().__init__(module, path, tree, statement_lines, text, spans, parsed, project)
        self.provenance = Provenance(self)
        self.frameworks.answer_history_with(self.provenance.reads_with_history)
        self.module_facts = ModuleFacts(self)
        self.loops = Loops(self, self.provenance)
        self.autograd_functions = AutogradFunctions(self, self.provenance)
        self.summaries = Summaries(self)

    @cached_property
    def cuda_init(self) -> CudaInit:
        """Where CUDA is used, indexed once for ML010 and the project summary."""
        return CudaInit(self)

    @cached_property
    def metrics(self) -> Metrics:
        """Which metrics grow with every update (ML020, the project summary)."""
        return Metrics(self)

    @cached_property
    def sizes(self) -> Sizes:
        """What a kept value weighs on the device, where the code states it (ML001, ML005)."""
        return Sizes(self)

    @cached_property
    def handed(self) -> Handed:
        """What callers hand a function's parameters: a module or not (ML003, the project summary)."""
        return Handed(self, self.module_facts, self.provenance)

    @cached_property
    def model_runs(self) -> ModelRuns:
        """Which functions run a model with grad on, for evaluation regions (ML003)."""
        return ModelRuns(self)

    @cached_property
    def eval_regions(self) -> EvalRegions:
        """Evaluation regions (ML003, the project summary)."""
        return EvalRegions(self)

    @cached_property
    def carried(self) -> CarriedState:
        """State a loop carries into its next step with its graph (ML006; ML003 leaves it to ML006)."""
        return CarriedState(self)

    def release(self) -> None:
        """Drop the analyses once the file's findings are built. They refer back to the model, so
        without this the file's tree waits for the cycle collector, whose first pass after the
        lint walks all of it (0.35 s of 6 on PyTorch's 27,820-line module)."""
        self.__dict__.clear()

from __future__ import annotations

import libcst as cst

from memlint.analysis.flow.handed import HANDS_OTHER, HANDS_UNKNOWN, verdict
from memlint.analysis.syntax.expressions import code
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule, torch_alias


class EvalWithoutNoGrad(Rule):
    code = "ML003"
    name = "eval-without-no-grad"
    severity = Severity.WARNING
    summary = "Evaluation code calls a model with autograd enabled"
    fix_applicability = Applicability.UNSAFE
    # (a loop of any names may evaluate by use: what its model outputs become decides, not a word)
    needles = (
        ("eval", "val", "test", "predict", "infer", "diffusers", "detach", ".data", ".item(", ".tolist(", "argmax",
         "multinomial", "for ", "while "),
    )
    context_in_importers = True  # `forward_one(model, batch)`, run in another file's evaluation loop
    what = """
Checks for evaluation code (a function named `validate*`, `evaluate*`,
`eval*`, `test*`, `predict*` or `inference`, outside test files, a loop
after `model.eval()`, or a loop over a
validation/test loader) that calls a model with grad enabled, in
a function or loop that never calls `.backward()` or `torch.autograd.grad`.
Evaluation is also recognised by use: a loop over batches, or a statement of
a function that never differentiates (other than a module's `forward` or a
framework's step), that reads the model's outputs only through `.detach()`
or `.data`; outside loops also through `.item()`, `.tolist()` or `int(...)`,
after the torch functions and tensor methods that carry their history. So is
a loop over batches, or a decoding loop (each step runs the model on what the
last one produced: the sampled token, the cache), in such a function or at the
top level of a script that differentiates nothing (not a test), whose
every model output ends as a number, an integer (`.argmax()`, a sampled
token), a comparison or its shape, or goes into another model run of the loop
(a criterion, the next step). A statement of such a loop that binds state a
model run reads in the next step is reported as carried state (ML006), not here.
A loop runs over batches by use too, whatever its names: each step runs a model
on an element of what it iterates (`for x in inputs: model(x)`, `for j in
range(n): model(inputs[j])`), not on what the step before produced. A model run
there may go through the project's own code: a function that runs the model it
is handed, or a method of an object of a class of the project (`net.score(x)`,
`predictor.apply(x)` where `apply` runs the network the predictor holds), also a
method the class inherits from a base class in another file; not where the
object is built with, or holds, a network whose class takes gradients through
its own methods (a renderer handed an SDF network whose `gradient` calls
`torch.autograd.grad`): such a run differentiates, and needs grad on. So is a process
function handed to ignite's `Engine(...)` that never differentiates, itself or
through the functions it calls: ignite runs it once per batch under the grad mode
of the code that runs the engine, and hands what it returns to its metrics (an
evaluator's step; ignite's own evaluators enter `torch.no_grad()` there). A function
of any name that runs a model in such a loop, never differentiates, and whose
model outputs never leave it with their history (they end as numbers or detached
copies, go into other model runs, or stay in its own variables and containers:
none is returned, stored on an object or handed to another function) evaluates
as a whole (a calibration pass over cached inputs, layer after layer).
A model run on a tensor the code made require grad (`pos = pos.requires_grad_()`,
`torch.zeros(n, requires_grad=True)`, before the loop too) is differentiated with
respect to its input on purpose (forces, saliency) and is not reported;
`requires_grad_(False)` freezes, and asks for no graph; so does a module whose
class's constructor ends by turning off `requires_grad` of every parameter
(pytorch-fid's `InceptionV3(..., requires_grad=False)`, built without asking for
it), also where the module is handed to the loop through other functions.
A module that holds no parameter (a `torch.nn` activation, smplx's `SMPLLayer`,
or a class of the project built on such bases that adds only buffers) records
a graph only where its input has one, and is not reported.
A function of any name that runs the models it is handed and never
differentiates is evaluation code when every caller, in its file or in
another file of the project, hands it those models in eval mode (after
`.eval()`, or attributes its class binds only to models put in eval mode),
with grad on and outside a training step. So is a method, whatever its name,
of a class that is no module, trains nothing and puts the models it holds in
eval mode (`self.model.eval()` in `__init__`, `self.vocoder = load(...).eval()`)
without switching them back: a predictor's `__call__`, a synthesizer's
`synthesize` (where a loop of the class calls the method, that loop is the region).
So is a function that trains only when a value says so (every backward and
optimizer step under `if train:`, `if optimizer is not None:`, or `if phase ==
"train":` in a loop over literal phases) where a call of the file with grad on
makes it false (`run_epoch(model, val_loader, train=False)`, or a false default
left as it is) or the loop reaches another phase: there it evaluates, and the
finding says to run the forward under `torch.set_grad_enabled(...)` of that test
(no `no_grad` fix: the same code trains).
A function named like evaluation is training code where a training step
differentiates what it returns: at a call of it in its file, after the
functions that make the call return it, through a parameter it is handed to
(`train(loader, predict)`, then `loss = criterion(predict(x), y)`), or in
another file of the project (a method also by its name, where that file does
not show the class of the object it calls it on: PPO's `evaluate_actions`);
or where it hands what it is handed to model runs that fill it, and the step
reads that after the call into what it differentiates or returns to the
framework to backward (`self._trainval_inference(batch)`, then `return
{"loss": batch["loss"]}` in Lightning's `training_step`).
The model may be run directly or through a function of this file or of
another file of the project (by the function's summary), through a method of an
object whose module class the project defines (`model.infer(x)` after `model =
Net()`, or of a parameter annotated `model: Net`, in any file) where that method
runs a model under its caller's grad mode and trains nothing (a method decorated
`@torch.no_grad()` runs none), or through a LightningModule's `predict_step`:
Lightning's predict loop (`Trainer.predict`) calls it without grad, but a call of
the project's own code runs it with the caller's grad mode, its own body or, where
the class leaves it to Lightning, the default that runs the module's forward
(`return self(batch)`); or by a library object
that runs the model it holds and trains it only in training mode, after
`model.eval()` (torchrec's `pipeline.progress(batches)`). A class that leaves
an evaluation method to its subclasses (`self.eval_step(batch)`, the method
abstract or not defined there) evaluates at that call when a subclass in
another file of the project overrides it with a model run with grad on: one
`no_grad` there covers every subclass. A method of any name that a class leaves to
its subclasses runs a model the same way where the class calls it in an evaluation
region of its own (`self.forward_batch(batch)` in a loop after `self.model.eval()`)
and an override in another file runs a model with grad on and never
differentiates (a runner's base class and its task runners). Each model call of
the region is reported on its line; the one fix, for the whole region, goes
with the first. Where the model is a parameter (or kept on `self` from one
in `__init__`) that nothing but its name shows is a module, its callers
decide: a call anywhere in the project that hands it a module with grad on
shows the finding, calls that hand only something else (a function, a plain
object) silence it, and with no such call in sight the finding says what it
assumed and is shown with `--preview` only.
"""
    why = """
`model.eval()` does not turn autograd off. Each forward pass then records a
graph and saves its activations for a backward pass that never comes, and any
output that is kept keeps them alive: appending the loss of such a loop grew
by +18 MiB per iteration (4×Linear(2048), batch 256) and `out.sum()` of batch
512 by +32 MiB per iteration; under `torch.no_grad()` both were flat.
"""
    example = """
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)
"""
    use_instead = """
@torch.no_grad()
def evaluate(model, loader):
    model.eval()
    for x, y in loader:
        out = model(x)
"""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._statements: set[int] = set()  # statements reported: one finding per model-call statement
        self._fixed: dict[int, cst.Call] = {}  # id(region) -> the call whose finding carries the region's fix

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        if not model.eval_regions.may_evaluate(model.scope_of(node)):
            return  # in no evaluation region (`region` below would say so, after the costly questions)
        direct = model.model_runs.runs_module(node) or model.eval_regions.runs_handed_module(node)
        overridden = "" if direct else model.eval_regions.overridden_evaluation(node)
        regions = model.eval_regions
        if not direct and not overridden and not model.running_callees(node) and not regions.method_run(node):
            return
        region = regions.region(node)
        if region is None:
            return
        statement = model.tree.statement_of(node)
        if id(statement) in self._statements:
            return
        via = ""
        if not direct:
            via = overridden or regions.model_run_by_callee(node)
            if not via:
                return
        if model.grad_state(node) is not Grad.ON or regions.needs_grad(region):
            return
        if direct and model.provenance.runs_on_grad_leaf(node):
            return  # it runs on a tensor made to require grad: the graph is wanted
        if model.provenance.runs_differentiating_object(node):
            return  # an explainer or an attack: it takes gradients, grad must be on
        if model.module_facts.runs_frozen(node, direct):
            return  # its parameters require no grad: the forward records no graph
        if model.carried.carried_statement(node):
            return  # it binds state the loop's next step runs the model on: carried state (ML006) reports it
        handed = self._handed(node) if direct else None
        if handed is not None and handed[0] == HANDS_OTHER:
            return  # every caller that runs it with grad hands it something that is no module
        self._statements.add(id(statement))
        where, hint = regions.describe(region)
        hint += f" ({via})" if via else ""
        extra: dict[str, object] = {}
        if handed is not None and handed[0] == HANDS_UNKNOWN:
            # shown with `--preview` only, unless the project's other callers show it a module
            hint += f" (assumed: {handed[1]})"
            extra = {"assumptions": [handed[1]], "handed": handed[2]}
        # the project index drops this when other files call the function it runs in only without grad
        func = region if isinstance(region, cst.FunctionDef) else model.scope_of(node)
        owner = model.enclosing_class(func) if isinstance(func, cst.FunctionDef) else None
        if isinstance(func, cst.FunctionDef) and model.tree.parent_of(func) is model.module:
            extra |= {"function": func.name.value, "in_file_calls": len(model.call_sites().get(func, ()))}
        elif owner is not None and model.tree.parent_of(owner) is model.module:
            # a method of a top-level class: as `Class.method`, which other files' calls name
            # where they show the receiver's class, or by its name alone unless it is handed on
            extra |= {"function": f"{owner.name.value}.{func.name.value}", "in_file_calls": len(model.call_sites().get(func, ()))}  # type: ignore[union-attr]
            if model.calls.handed_on(func):  # type: ignore[arg-type]
                extra["handed_on"] = True
        first = self._fixed.get(id(region))
        if first is not None:
            # each model call of the region builds its own graph; the one fix (at the region) covers all
            line = model.range_of(first).start.line
            message = f"`{code(node.func)}(...)` also runs with autograd enabled in {where}"
            self.report(node, message, f"{hint}: the fix reported on line {line} covers this call too", **extra)
            return
        self._fixed[id(region)] = node
        message = (
            f"`{code(node.func)}(...)` runs with autograd enabled in {where}, saving activations for a backward "
            "that never comes"
        )
        guarded_torch = torch_alias(self.model) is None and any(
            dotted(alias.name) == "torch" and self.model.scope_of(node_) is self.model.module
            for node_ in self.model.tree.by_type.get(cst.Import, ())
            for alias in node_.names
        )
        # torch imported only under a condition (`if is_torch_available():`): a module-level
        # `import torch` would make it a hard dependency, so say what to do instead
        # a pass that also trains (`run_epoch(..., train=True)`) keeps its grad: no `no_grad` fix fits it
        flagged = isinstance(region, cst.FunctionDef) and regions.flagged_evaluation(region) is not None
        fix = None if guarded_torch or flagged else self._fix(region)
        self.report(node, message, hint, fix=fix, **extra)

    def _handed(self, node: cst.Call) -> tuple[str, str, list[object]] | None:
        """Where `node` runs a parameter whose being a model rests on its name alone, what the callers in
        this file hand it (`analysis/flow/handed.py`), the assumption in words where they show nothing,
        and how the project's other files would call it: [function or class, parameter, position, whether
        a class, its calls in this file] ([] where they cannot: a method)."""
        model = self.model
        found = model.handed.named_parameter(node)
        if found is None:
            return None
        func, param = found
        passed = model.handed.passed(func, param)
        kind = verdict(passed) if passed is not None else HANDS_UNKNOWN
        cls = model.enclosing_class(func)
        init = func.name.value == "__init__"
        name = cls.name.value if init and cls is not None else func.name.value
        where = f"`{name}(...)`" if init else f"`{name}`"
        assumed = f"`{param}` is a model: no caller of {where} in sight shows what it is handed"
        return kind, assumed, model.handed.exported(func, param)

    def _fix(self, region: cst.CSTNode) -> FixSpec:
        torch = torch_alias(self.model)
        prepend = "" if torch else "import torch\n"
        torch = torch or "torch"
        no_grad = cst.parse_expression(f"{torch}.no_grad()")
        if isinstance(region, cst.FunctionDef):
            # innermost, so that @staticmethod / @classmethod still apply to the result
            new = region.with_changes(decorators=[*region.decorators, cst.Decorator(no_grad)])
            message = "Decorate the evaluation function with `@torch.no_grad()`"
        else:
            new = cst.With(
                items=[cst.WithItem(no_grad)],
                body=cst.IndentedBlock(body=[region.with_changes(leading_lines=[])]),
                leading_lines=region.leading_lines,
            )
            kind = "evaluation loop" if isinstance(region, (cst.For, cst.While)) else "inference statement"
            message = f"Wrap the {kind} in `with torch.no_grad():`"
        return FixSpec(Applicability.UNSAFE, message, ((region, new),), prepend)

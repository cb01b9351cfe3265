from __future__ import annotations

import re

import libcst as cst

from memlint.analysis.library import MODULE_API_METHODS, MODULE_PLACEMENT
from memlint.analysis.syntax.expressions import code, is_literal, method_name, names_in, root_name
from memlint.analysis.regions.grad import Grad
from memlint.models import Applicability, Severity
from memlint.rules.base import FixSpec, Rule, torch_alias

_TAIL = re.compile(r"\w*\Z")

# Calls that may take a model without training it: moving it, copying it, preparing it alone.
_HARMLESS_USES = {"to", "cuda", "eval", "train", "half", "bfloat16", "float", "deepcopy", "prepare", "prepare_model"}


class FrozenModelWithGrad(Rule):
    code = "ML019"
    name = "frozen-model-with-grad"
    severity = Severity.WARNING
    summary = "A model that is not trained (reference, teacher, reward) runs with autograd on in a training step"
    fix_applicability = Applicability.UNSAFE
    # a file that steps an optimizer may run a model that a function of another file put in eval mode
    needles = (("eval()", "train(False)", "step("),)
    what = """
Checks for a model called in a training step (a loop that steps an
optimizer, a function that does, `training_step`, `compute_loss`, or a
helper that only training code of the file calls, `make_experience`, unless
a caller hands the model's input autograd history) with autograd on, or a method of it that computes on what it is handed and
whose result is used (`latents = vae.encode(pixels)`; not a module's own
API such as `state_dict()`, nor `generate` or a method defined under
`@torch.no_grad()`), when the file shows that the model is not trained: it is
put in eval mode (`.eval()`, or bound to the result of one:
`self.teacher = teacher.eval()`, or to what a function of this file or another
file of the project returns where it puts the model it returns in eval mode and
reads none of its parameters: `ref = load_reference(path)`), no optimizer gets its parameters (they are
never read, and the model is passed to nothing but `.to()`, `deepcopy`, a
`prepare(...)` of its own or a function that only runs it or puts it in eval
mode, here or, for a model the function is handed, where this file calls the
function), and its parameters keep `requires_grad` (a model frozen with `requires_grad_(False)`
records no graph). The model may also be run by a function it is handed, of
this file or of another file of the project, whose summary says it runs that
parameter and does not train it (`scores = get_reward(reward_model, ids)`).
A call whose inputs carry autograd history (a perceptual loss on generated images, a reward
model on the policy's soft outputs) is not reported: the gradient must flow
through it; nor is a step that makes inputs require grad on purpose
(adversarial examples, saliency).
Where the model is handed to a function that nothing in its file calls,
whether an optimizer gets its parameters is its callers' to say: the finding
says what it assumed and is shown with `--preview` only.
"""
    why = """
`model.eval()` does not turn autograd off, and leaving a model out of the
optimizer does not either: its parameters still require grad, so every
forward records a graph and saves its activations. When the output only
feeds a KL term or a target, backward runs through that graph into the
model's parameters and fills a `.grad` for each of them (one more copy of the
model that no optimizer clears); when it is not backwarded, the saved
activations live as long as the output. RLHF trainers run a reference model
this way on every step: under `torch.no_grad()` it uses no memory beyond its
forward.

The fix wraps the statement in `torch.no_grad()`; it is unsafe because code
further on might differentiate through the output on purpose.
"""
    example = """
ref_model.eval()
for batch in loader:
    logits = policy(batch["input_ids"]).logits
    ref_logits = ref_model(batch["input_ids"]).logits
    loss = kl_penalty(logits, ref_logits)
    loss.backward()
    optimizer.step()
"""
    use_instead = """
ref_model.eval()
for batch in loader:
    logits = policy(batch["input_ids"]).logits
    with torch.no_grad():
        ref_logits = ref_model(batch["input_ids"]).logits
    loss = kl_penalty(logits, ref_logits)
    loss.backward()
    optimizer.step()
"""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self._mentions: dict[str, list[cst.CSTNode]] | None = None  # code -> nodes, for names not plainly dotted
        self._by_tail: dict[str, list[cst.CSTNode]] | None = None  # last word -> Names and Attributes
        self._written: dict[str, list[cst.CSTNode]] = {}  # code -> `_written_as`
        self._switched: tuple[set[str], set[str]] | None = None  # receivers of `.eval()`/`.train()`, their last words

    def visit_Call(self, node: cst.Call) -> None:
        model = self.model
        func = node.func
        if not isinstance(func, (cst.Name, cst.Attribute)):
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "forward":
            func = func.value
        elif (
            type(func) is cst.Attribute
            and not (type(func.value) is cst.Name and func.value.value == "self")  # `self.model(x)`: an attribute
            and self._switched_code(func.value) is not None
            and self._computes_with(node)
        ):
            func = func.value  # `vae.encode(pixels)`: a method of the model that computes on what it is handed runs it
        name = self._switched_code(func)
        handed = None  # the argument that the callee runs as a model (`get_reward(self.reward_model, ids)`)
        if name is None:
            handed = self._handed_switched(node)
            if handed is None:
                return  # nothing written like it is put in eval (or training) mode: `_put_in_eval_mode` finds nothing
            name = code(handed)
        evaluated = self._put_in_eval_mode(name, node)  # `.eval()` is a Module's: the callee is a model
        if evaluated is None or not self._untrained(name, node) or model.grad_state(node) is not Grad.ON:
            return
        if not self._in_training_step(node):
            return
        if any(arg.value is not handed and model.provenance.carries_history(arg.value, node) for arg in node.args):
            return  # the gradient flows through the model to what made its input
        line = model.range_of(evaluated).start.line
        mode = "eval mode" if method_name(evaluated) in ("eval", "train") else f"in eval mode from `{code(evaluated.func)}(...)`"
        called = f"`{name}(...)`" if handed is None and func is node.func else f"`{code(node.func)}(...)`"
        runs = f"{called} runs" if handed is None else f"{called} runs `{name}`"
        message = (
            f"{runs} with autograd on in a training step, but `{name}` is not trained here ({mode} at "
            f"line {line}, in no optimizer)"
        )
        hint = (
            f"run {called} under `torch.no_grad()`: its parameters still require grad, so the forward saves "
            "activations and a backward through its output fills a `.grad` for each of them"
        )
        assumed = self._handed_from_out_of_sight(name, node)
        if assumed:  # shown with `--preview` only: the callers that decide are not in this file
            hint += f" (assumed: {assumed})"
        self.report(node, message, hint, fix=self._fix(node), **({"assumptions": [assumed]} if assumed else {}))

    def _computes_with(self, call: cst.Call) -> bool:
        """Does `receiver.method(...)` compute with the model on what it is handed: a method no module
        API has (`vae.encode(pixels)`, not `.state_dict()`, `.generate(...)`), handed something other
        than literals, whose result is used, and not declared to run without grad where it is defined?"""
        model = self.model
        if call.func.attr.value in MODULE_API_METHODS or not call.args:  # type: ignore[attr-defined]
            return False
        if all(is_literal(a.value) for a in call.args) or type(model.tree.parent_of(call)) is cst.Expr:
            return False  # `ema.update(model)`, `model.set_mode("eval")`: nothing computed is kept
        method = model.loops.method_called(call)
        if method is not None:
            return model.grad.declared_entry(method) is not Grad.OFF
        made = model.provenance.project_instance(call.func.value, call)  # type: ignore[attr-defined]
        facts = model.project.method(made, call.func.attr.value) if made is not None else None  # type: ignore[attr-defined]
        return (facts or {}).get("grad") != "off"

    def _handed_switched(self, call: cst.Call) -> cst.BaseExpression | None:
        """The argument of `call`, written like a receiver of `.eval()` in this file, that the callee
        runs as a model without training it (by its summary, here or in another file of the project)."""
        if not any(type(a.value) in (cst.Name, cst.Attribute) and self._switched_code(a.value) for a in call.args):
            return None  # (the callee's facts are asked only where some argument may be a model in eval mode)
        return next(
            (a for a in self.model.model_runs.handed_runs(call) if type(a) in (cst.Name, cst.Attribute) and self._switched_code(a)),
            None,
        )

    def _handed_from_out_of_sight(self, name: str, at: cst.CSTNode) -> str:
        """Where the model is a parameter of a function that this file never calls, whether an
        optimizer gets its parameters is its callers' to say (another file's, or a user's): what the
        finding then assumes, in words; "" where the file shows it."""
        model = self.model
        scope = model.scope_of(at)
        root = name.split(".")[0]
        if not isinstance(scope, cst.FunctionDef) or root == "self" or root not in model.params(scope):
            return ""
        if model.call_sites().get(scope):
            return ""
        return f"the callers of `{scope.name.value}`, not in this file, give no optimizer the parameters of `{root}`"

    # -- what the file says about the model ------------------------------------------------
    def _mentions_of(self, name: str, at: cst.CSTNode) -> list[cst.CSTNode]:
        """The Names/Attributes written as `name` that are the same variable as `name` at `at`:
        `ref_model` of the same function (or a module-level one), `self.teacher` of the same class."""
        model = self.model
        mentions = self._written_as(name)
        scope = model.scope_of(at)
        root = name.split(".")[0]
        if root == "self":
            owner = self._class_of(scope)
            return [m for m in mentions if self._class_of(model.scope_of(m)) is owner]
        local = isinstance(scope, cst.FunctionDef) and (root in model.params(scope) or model.bindings(scope, root))
        home = scope if local else model.module
        return [
            m
            for m in mentions
            if model.scope_of(m) is home
            or (not local and not (model.bindings(model.scope_of(m), root) or root in model.params(model.scope_of(m))))
        ]

    def _switched_code(self, func: cst.BaseExpression) -> str | None:
        """`func`'s code where it is written like a receiver of `.eval()` or `.train(...)` in this
        file (the only mentions `_put_in_eval_mode` looks at), else None. The receivers' code is
        generated once per file, `func`'s only when the word it ends in is one of theirs."""
        if self._switched is None:
            receivers = {
                code(call.func.value)  # type: ignore[attr-defined]
                for call in self.model.tree.by_type.get(cst.Call, ())
                if method_name(call) in ("eval", "train")
            }
            # a name bound to a model put in eval mode (`self.teacher = teacher.eval()`)
            receivers |= {
                code(assign.targets[0].target)
                for assign in self.model.tree.by_type.get(cst.Assign, ())
                if len(assign.targets) == 1 and self._bound_switched_value(assign.value) is not None
            }
            self._switched = receivers, {_tail(r) for r in receivers}
        receivers, tails = self._switched
        if type(func) is cst.Name and not func.lpar:
            return func.value if func.value in receivers else None
        if type(func) is cst.Attribute and not func.lpar and _tail(func.attr.value) not in tails:
            return None
        written = code(func)
        return written if written in receivers else None

    def _written_as(self, name: str) -> list[cst.CSTNode]:
        """The file's Names and Attributes whose code is `name`, in the tree's order (Names first).
        Code that ends in a word can only be written by a node without parentheses whose own name
        (a Name's, an Attribute's `attr`) ends in that word: only those nodes are turned back into
        code (generating the code of every Name and Attribute of the file cost more than the rest
        of the rule). Other code (`(model)`) is looked up in a table of all."""
        tail = _tail(name)
        if not tail:
            if self._mentions is None:
                self._mentions = {}
                for node_type in (cst.Name, cst.Attribute):
                    for node in self.model.tree.by_type.get(node_type, ()):
                        self._mentions.setdefault(code(node), []).append(node)
            return self._mentions.get(name, [])
        if self._by_tail is None:
            self._by_tail = {}
            for node in self.model.tree.by_type.get(cst.Name, ()):
                if not node.lpar:
                    self._by_tail.setdefault(_tail(node.value), []).append(node)
            for node in self.model.tree.by_type.get(cst.Attribute, ()):
                if not node.lpar:
                    self._by_tail.setdefault(_tail(node.attr.value), []).append(node)
        found = self._written.get(name)
        if found is None:
            found = [
                m
                for m in self._by_tail.get(tail, ())
                if (m.value == name if isinstance(m, cst.Name) else code(m) == name)
            ]
            self._written[name] = found
        return found

    def _class_of(self, scope: cst.CSTNode) -> cst.ClassDef | None:
        return self.model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None

    def _put_in_eval_mode(self, name: str, at: cst.Call) -> cst.Call | None:
        """The `.eval()` (or `.train(False)`) that holds at `at`: one in another function (`__init__`), or
        earlier in the same one; None when the file also switches the model to training mode."""
        found = None
        for mention in self._mentions_of(name, at):
            call = self._called_method(mention)
            loaded = False  # bound to what a function returns in eval mode (`ref = load_reference(path)`)
            if call is None:
                call = self._bound_switched(mention)
                loaded = call is not None and _switched_value(call) is None
            if call is None:
                continue
            method = method_name(call)
            if loaded or method == "eval" or (method == "train" and call.args and code(call.args[0].value) == "False"):
                same_function = self.model.scope_of(call) is self.model.scope_of(at)
                if found is None and (not same_function or self.model.tree.is_after(at, call)):
                    found = call
            elif method == "train":
                return None  # trained somewhere: `model.train()` before its epochs
        return found

    def _untrained(self, name: str, at: cst.CSTNode, depth: int = 0) -> bool:
        """No optimizer can reach the model's parameters, and they still require grad; for a model
        the function is handed, also where this file's callers hand it over (simsiam's `main_worker`
        builds the optimizer from the model's trainable parameters, then calls `train(model, ...)`)."""
        model = self.model
        scope = model.scope_of(at)
        if depth < 2 and isinstance(scope, cst.FunctionDef) and name in model.params(scope):
            for site in model.call_sites().get(scope, ()):
                handed = model.summaries.argument_for(site, scope, name)
                if isinstance(handed, (cst.Name, cst.Attribute)) and not self._untrained(code(handed), site, depth + 1):
                    return False
        tree = model.tree
        parts = name.split(".")
        if depth < 2 and len(parts) == 2 and parts[0] == "self":
            # `self.encoder = encoder`: what the method that binds it does with its parameter counts too
            # (`Adam(encoder.parameters())` beside it)
            for mention in self._mentions_of(name, at):
                assign = tree.parent_of(tree.parent_of(mention))
                if type(assign) is not cst.Assign or type(assign.value) is not cst.Name:
                    continue
                binder = model.scope_of(assign)
                if isinstance(binder, cst.FunctionDef) and assign.value.value in model.params(binder):
                    if not self._untrained(assign.value.value, assign, depth + 1):
                        return False
        for owner in (".".join(parts[:i]) for i in range(1, len(parts))):
            # `self.parameters()` of the module that holds `self.teacher` includes the teacher's
            for mention in self._mentions_of(owner, at):
                call = self._called_method(mention)
                if call is not None and method_name(call) in ("parameters", "named_parameters"):
                    return False
                if call is not None and self._makes_stepped_optimizer(call):
                    return False  # `self.opt, sched = self.net.get_optimizer(steps)`: the holder's own optimizer
        for mention in self._mentions_of(name, at):
            parent = tree.parent_of(mention)
            if isinstance(parent, cst.Attribute) and parent.value is mention:
                if parent.attr.value in ("parameters", "named_parameters", "requires_grad_", "requires_grad"):
                    return False  # read for an optimizer, or frozen (then no graph is recorded)
                continue
            if isinstance(parent, cst.Arg):
                call = tree.parent_of(parent)
                if isinstance(call, cst.Call) and any(a is mention for a in self._runs_handed(call)):
                    continue  # handed to a function that only runs it, or prepares it for inference
                if not isinstance(call, cst.Call) or (method_name(call) or code(call.func)).rsplit(".", 1)[-1] not in _HARMLESS_USES:
                    return False  # handed to code that may train it
                if method_name(call) == "prepare" and len(call.args) > 1:
                    return False  # `accelerator.prepare(model, optimizer)`
        return True

    def _makes_stepped_optimizer(self, call: cst.Call) -> bool:
        """Is what `call` returns bound to an optimizer that this file steps (`self.opt, self.sched =
        self.net.get_optimizer(n)`, then `self.opt.step()`)? A method of the object that holds a model
        may build that optimizer from the model's parameters, out of sight."""
        model = self.model
        assign = model.tree.parent_of(call)
        if not isinstance(assign, cst.Assign) or assign.value is not call:
            return False
        bound = set()
        for target in assign.targets:
            parts = target.target.elements if isinstance(target.target, (cst.Tuple, cst.List)) else [target.target]
            bound |= {code(p.value if isinstance(p, cst.Element) else p) for p in parts}
        return any(
            model.loops.is_optimizer_step(c) and code(c.func.value) in bound  # type: ignore[attr-defined]
            for c in model.tree.by_type.get(cst.Call, ())
        )

    def _bound_switched(self, mention: cst.CSTNode) -> cst.Call | None:
        """The `.eval()` (or `.train(...)`) call whose result `mention` is bound to
        (`self.teacher = teacher.eval()`, `vgg = vgg16(weights=w).eval().to(device)`), else None."""
        target = self.model.tree.parent_of(mention)
        assign = self.model.tree.parent_of(target) if isinstance(target, cst.AssignTarget) else None
        if not isinstance(assign, cst.Assign) or len(assign.targets) != 1:
            return None
        return self._bound_switched_value(assign.value)

    def _bound_switched_value(self, value: cst.BaseExpression) -> cst.Call | None:
        """`_switched_value`, or the call of a function of this file or another file of the project that
        returns a model it put in eval mode (`returns_evaluated`: `ref = load_reference(path)`), placed or not."""
        switched = _switched_value(value)
        if switched is not None:
            return switched
        while type(value) is cst.Call and method_name(value) in MODULE_PLACEMENT and type(value.func) is cst.Attribute:
            value = value.func.value
        if type(value) is not cst.Call or type(value.func) not in (cst.Name, cst.Attribute):
            return None
        model = self.model
        callees = model.local_callees(value)
        if callees:
            return value if all(model.summaries.returns_evaluated(f) for f in callees) else None
        if root_name(value.func) not in model.imports.aliases.keys() | model.imports.relative.keys():
            return None  # a builtin, a method of an object: only imported functions are asked about
        return value if (model.project.function(value) or {}).get("returns_evaluated") else None

    def _runs_handed(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` that its callee only runs as a model or prepares for inference (puts
        in eval mode), by the callee's summary; none for the harmless uses, which need no look at a callee."""
        if (method_name(call) or code(call.func)).rsplit(".", 1)[-1] in _HARMLESS_USES:
            return []
        runs = self.model.model_runs
        return runs.handed_runs(call) + runs.handed_for_inference(call)

    def _called_method(self, mention: cst.CSTNode) -> cst.Call | None:
        attribute = self.model.tree.parent_of(mention)
        if isinstance(attribute, cst.Attribute) and attribute.value is mention:
            call = self.model.tree.parent_of(attribute)
            if isinstance(call, cst.Call) and call.func is attribute:
                return call
        return None

    def _in_training_step(self, node: cst.CSTNode) -> bool:
        """In a step that updates weights (an optimizer steps in the loop, or a framework's training hook),
        and that does not make inputs require grad on purpose (adversarial examples, saliency)."""
        model = self.model
        loops = model.loops
        region: cst.CSTNode | None = next(
            (
                loop
                for loop in model.enclosing_loops(node)
                if any(loops.is_optimizer_step(c) for c in model.tree.descendants(loop, cst.Call))
            ),
            None,
        )
        scope = model.scope_of(node)
        if region is None and isinstance(scope, cst.FunctionDef) and (
            loops.train_step_method(scope)
            or any(
                loops.is_optimizer_step(c) and not model.enclosing_loops(c)
                for c in model.tree.descendants(scope, cst.Call)
            )
        ):
            region = scope  # `training_step`, or a function that takes one optimizer step (not a loop of them)
        if region is None and isinstance(scope, cst.FunctionDef) and model.eval_regions.called_in_training(scope):
            if self._handed_history(node, scope):
                return False  # a perceptual loss on what the step generated: the gradient flows through it
            region = scope  # a helper of the step (`make_experience`), called only from training code
        return region is not None and not self._differentiates_inputs(region)

    def _handed_history(self, call: cst.Call, helper: cst.FunctionDef) -> bool:
        """Does `call` read a parameter of `helper` that one of its callers hands a value with autograd
        history (`self.perceptual(images)` on what the step's generator produced)?"""
        model = self.model
        read = {n for a in call.args for n in names_in(a.value)} & model.params(helper)
        return any(
            arg is not None and model.provenance.carries_history(arg, site)
            for site in model.call_sites().get(helper, ())
            for arg in (model.summaries.argument_for(site, helper, p) for p in read)
        )

    def _differentiates_inputs(self, region: cst.CSTNode) -> bool:
        """`x.requires_grad_()`, `x.requires_grad = True`, `torch.autograd.grad(...)` in the step."""
        model = self.model
        for call in model.tree.descendants(region, cst.Call):
            if method_name(call) == "requires_grad_" and not (call.args and code(call.args[0].value) == "False"):
                return True
            if (model.imports.resolve(call.func) or "") == "torch.autograd.grad":
                return True
        for assign in model.tree.descendants(region, cst.Assign):
            target = assign.targets[0].target
            if isinstance(target, cst.Attribute) and target.attr.value == "requires_grad" and code(assign.value) != "False":
                return True
        return False

    # -- the fix ---------------------------------------------------------------------------
    def _fix(self, call: cst.Call) -> FixSpec | None:
        """`with torch.no_grad():` around the statement, when nothing else in it needs grad."""
        model = self.model
        small = model.tree.statement_of(call)
        line = model.tree.parent_of(small)
        if not (
            isinstance(small, cst.Assign)
            and isinstance(line, cst.SimpleStatementLine)
            and len(line.body) == 1
            and isinstance(model.tree.parent_of(line), (cst.IndentedBlock, cst.Module))
        ):
            return None
        others = [c for c in model.tree.descendants(small.value, cst.Call) if c is not call and not model.tree.contains(call, c)]
        if any(model.provenance.is_module_call(c) or model.local_callees(c) for c in others):
            return None
        outside = set(names_in(small.value)) - set(names_in(call))
        if any(model.provenance.carries_history(cst.Name(n), call) for n in outside):
            return None  # `ref(x).logits - logits`: the statement also differentiates something else
        torch = torch_alias(model)
        new = cst.With(
            items=[cst.WithItem(cst.parse_expression(f"{torch or 'torch'}.no_grad()"))],
            body=cst.IndentedBlock(body=[line.with_changes(leading_lines=[])]),
            leading_lines=line.leading_lines,
        )
        return FixSpec(
            Applicability.UNSAFE,
            "Run the model that is not trained under `torch.no_grad()`",
            ((line, new),),
            "" if torch else "import torch\n",
        )


def _tail(text: str) -> str:
    """The word that `text` ends in ("" when it ends in anything else, a parenthesis)."""
    return _TAIL.search(text).group()  # type: ignore[union-attr]


def _switched_value(value: cst.BaseExpression) -> cst.Call | None:
    """The `.eval()` or `.train(...)` call that `value` is, placed or not (`net.eval().to(device)`), else
    None (not after `requires_grad_(False)`: a frozen model records no graph)."""
    while type(value) is cst.Call and method_name(value) in MODULE_PLACEMENT:
        value = value.func.value  # type: ignore[attr-defined]
    return value if type(value) is cst.Call and method_name(value) in ("eval", "train") else None

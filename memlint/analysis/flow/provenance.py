"""Which values may carry autograd history, and which tensors live on the device.

Two questions, both answered conservatively towards "no" (a false positive
costs more trust than a missed finding):

* `carries_history(expr)`: results of calling a module/model/criterion, loss
  functions, `.loss` of a model output, values that had `.backward()` called
  on them and arithmetic on those; not after `.item()`, `float()`, `.detach()`,
  `.tolist()`, comparisons, `argmax`, nor for numbers, numpy values, module
  constructors or anything created under no grad.
* `device_output(expr)`: a non-scalar tensor produced by a model (or a batch
  moved to the device) that has not been moved off it.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import (
    bool_constant,
    call_arg,
    callee_name,
    code,
    keyword_arg,
    method_name,
    names_in,
    reads_as_name,
    root_name,
    target_names,
)
from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.regions.differentiation import differentiates
from memlint.analysis.library import (
    MODULE_SELF_RETURNING,
    TENSOR_CLASSES,
    PARAMETER_ITERATORS,
    TEXT_ONLY_METHODS,
    TEXT_WITH_STRING_ARGUMENT,
    CONCATENATIONS,
    CONTAINER_STORES,
    BACKWARD_OF_ARGUMENT,
    DTYPES,
    FRAMEWORK_ATTRIBUTES,
    ATTRIBUTE_REGISTRARS,
    GRAD_LEAF_KEYWORD,
    HOST_NUMBER_BUILTINS,
    GRAD_LEAF_METHOD,
    GRAPH_OF_DERIVATIVE,
    HISTORY_PASSING_METHODS,
    PRETRAINED_LOAD,
    PRETRAINED_PLACEMENT_KEYWORDS,
    HOST_LIBRARIES,
    INDEX_FUNCTIONS,
    INDEX_FUNCTIONS_OF_ONE_ARGUMENT,
    INTEGER_DTYPES,
    LAYER_OPTION_PARAMETERS,
    LAYER_PLACING_KEYWORDS,
    MODULE_CLASS_NAME,
    MODULE_RUN_METHODS,
    NON_MODEL_FACTORIES,
    NUMBER_METHODS,
    OTHER_RUNTIME_MODELS,
    PASS_THROUGH_FUNCTIONS,
    READING_BUILTINS,
    RUNS_ITS_ARGUMENT,
    SEQUENTIAL_MODULES,
    TENSOR_METHODS,
    TENSOR_MODULES,
    named_like_loss,
    named_like_module,
)
from memlint.analysis.flow.project_facts import ProjectFacts
from memlint.analysis.flow.values import NO, Value, join
from memlint.analysis.tensor_api import TENSOR_API
from memlint.analysis.regions.grad import Grad
from memlint.analysis.regions.model_runs import literal_at
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.syntax.tree import Tree, iter_children

if TYPE_CHECKING:
    from collections.abc import Callable

    from memlint.analysis.syntax.imports import Imports

    from memlint.analysis.context import FileContext
    from memlint.analysis.syntax.scopes import Binding, Scope
    from memlint.analysis.syntax.tree import Tree

# `build_model(cfg)` makes a module; it does not run one.
_FACTORY_VERBS = re.compile(
    r"^_*(get|build|create|load|make|init|setup|prepare|wrap|unwrap|compile|save|register|freeze|copy|"
    r"clone|convert|apply|set|is|has|to|from|export|instantiate|construct|reset|update|patch)_",
    re.IGNORECASE,
)
_SCALAR_NAME = re.compile(r"loss|acc|correct|metric|score|err|count|total|num_", re.IGNORECASE)

# Methods whose result has no autograd history (or no tensor at all).
_PASSING_METHOD_NAMES = frozenset().union(*HISTORY_PASSING_METHODS.values())
# Methods of `torch.Tensor` that lists and tuples have too: no evidence that a value is a tensor.
_LIST_METHODS = frozenset({"index", "count", "copy", "sort"})
_COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)
_HISTORY_FREE_METHODS = {
    "item", "tolist", "detach", "detach_", "numpy", "argmax", "argmin", "size", "dim", "numel", "nelement",
    "element_size", "eq", "ne", "lt", "gt", "le", "ge", "isnan", "isinf", "isfinite", "any", "all",
    "is_contiguous", "data_ptr", "long", "int", "bool", "byte", "short", "stride", "nonzero",
    "backward", "get_device", "keys", "__len__", "is_floating_point", "register_hook",
    "register_forward_hook", "eval", "train", "state_dict", "parameters", "named_parameters",
    "zero_grad", "step", "format", "join", "split", "strip", "encode", "decode",
}
# Methods that combine the receiver with their arguments.
_ARITHMETIC_METHODS = {
    "add", "sub", "mul", "div", "matmul", "mm", "bmm", "pow", "true_divide", "where", "addmm",
    "masked_fill", "expand_as", "type_as", "copy_", "add_", "mul_", "sub_", "div_",
}
_HISTORY_FREE_BUILTINS = {
    "float", "int", "bool", "len", "str", "round", "repr", "print", "isinstance", "type", "range",
    "enumerate", "id", "hash", "format", "abs_", "list_len",
}
_PASS_THROUGH_BUILTINS = {"sum", "max", "min", "abs", "tuple", "list", "sorted", "reversed"}
_TORCH_NO_HISTORY = re.compile(
    r"^torch\.(tensor|as_tensor|from_numpy|zeros|ones|empty|full|arange|linspace|logspace|eye|"
    r"rand|randn|randint|randperm|normal|bernoulli|multinomial|zeros_like|ones_like|empty_like|"
    r"full_like|rand_like|randn_like|randint_like|argmax|argmin|argsort|searchsorted|bucketize|is_tensor|is_grad_enabled|numel|"
    r"histc|bincount|unique|unique_consecutive|count_nonzero|nonzero|argwhere|"
    r"eq|ne|lt|gt|le|ge|equal|allclose|isclose|isnan|isinf|isfinite|no_grad|inference_mode|"
    r"set_grad_enabled|manual_seed|device|dtype|Size|save|load|compile|jit\..*|cuda\..*|"
    r"distributed\..*|backends\..*|utils\..*|autograd\.grad|nn\.[A-Z]\w*|nn\.init\..*|"
    r"optim\..*|Generator|get_default_dtype|finfo|iinfo)$"
)
# torch functions without history (no derivative: indices, counts) whose results are computed where
# their inputs are, on the device for device inputs (`torch.histc(indices.float(), bins=n)`)
_COMPUTED_WITHOUT_HISTORY = frozenset({
    "argmax", "argmin", "argsort", "searchsorted", "bucketize", "histc", "bincount", "unique", "unique_consecutive",
    "count_nonzero", "nonzero", "argwhere",
})
_F_LOSSES = re.compile(r"^torch\.nn\.functional\.\w*(loss|entropy|_div|kl_div)$")
_MODULE_FACTORIES = re.compile(
    r"(^torch\.nn\.[A-Z]\w*$)|(\.from_pretrained$)|(^torch\.compile$)|(DistributedDataParallel$)|"
    r"(DataParallel$)|(FullyShardedDataParallel$)|(\.prepare$)|(\.prepare_model$)|(\.setup$)"
)
_NO_HISTORY_ATTRIBUTES = {
    "shape", "dtype", "device", "grad", "data", "requires_grad", "is_cuda", "ndim", "T_no",
    "is_leaf", "layout", "names",
}
_SCALAR_ATTRIBUTES = {"loss", "losses"}
_CONTAINER_NAME = re.compile(r"dict|outputs$|results?$|metrics$|stats$|info$|logs$|_list$|_tuple$", re.IGNORECASE)
_TENSOR_ATTRIBUTES = {"loss", "logits", "last_hidden_state", "pooler_output", "T", "mT", "data"}
_TENSOR_METHODS = {
    "sum", "mean", "view", "reshape", "float", "half", "double", "bfloat16", "to", "cuda", "clone", "squeeze",
    "unsqueeze", "softmax", "log_softmax", "sigmoid", "exp", "log", "pow", "abs", "norm", "flatten", "permute",
    "transpose", "contiguous", "mul", "add", "div", "sub", "matmul", "relu", "tanh", "square", "sqrt", "neg",
    "max", "min", "std", "var", "prod", "expand", "repeat", "masked_fill", "type_as", "view_as", "reshape_as",
}
_TORCH_TENSOR_FUNCTIONS = {
    "cat", "stack", "sum", "mean", "matmul", "mm", "bmm", "exp", "log", "sigmoid", "softmax", "log_softmax",
    "tanh", "relu", "where", "einsum", "square", "sqrt", "abs", "norm", "logsumexp", "flatten", "cross_entropy",
    "mse_loss", "l1_loss", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
    # factories: `obs = torch.zeros(n, d)` is a tensor (a buffer that `obs[i] = x` copies into)
    "zeros", "ones", "empty", "full", "zeros_like", "ones_like", "empty_like", "full_like", "tensor", "as_tensor",
    "from_numpy", "Tensor", "FloatTensor", "LongTensor", "arange", "rand", "randn",
}
_OFF_DEVICE_METHODS = {"cpu", "numpy", "tolist", "item"}
# Methods that return sizes, host numbers (`x.size(0)`, `x.numel()`).
_SHAPE_METHODS = {"size", "numel", "dim", "nelement", "element_size"}
_NOT_TENSOR_METHODS = {
    "numel", "size", "dim", "nelement", "element_size", "data_ptr", "stride", "get_device", "is_contiguous",
    "keys", "__len__", "format", "is_floating_point", "backward", "eval", "train", "step", "zero_grad",
    # a module's hook registrations return a RemovableHandle, not a tensor
    "register_forward_hook", "register_forward_pre_hook", "register_full_backward_hook",
    "register_full_backward_pre_hook", "register_backward_hook", "register_module_forward_hook",
}
_NUMBER_METHOD_NAMES = frozenset().union(*NUMBER_METHODS.values())
# Methods only a tensor has (a dict, list or ModelOutput has none of them).
_TENSOR_EVIDENCE = {"backward", "item", "detach", "detach_", "to", "cpu", "cuda", "numpy", "requires_grad_", "register_hook"}
_REDUCTIONS = {"sum", "mean", "max", "min", "norm", "std", "var", "prod", "all", "any", "median", "logsumexp"}
_BACKWARD_FUNCTIONS = {"backward", "manual_backward"}
# How many levels of this file's helpers that hand a value on to one that differentiates it are followed.
_DIFFERENTIATION_ROUNDS = 4
_AUTOGRAD_DIFFERENTIATION = ("torch.autograd.backward", "torch.autograd.grad")
# Parameters of Lightning's hooks that are not tensors.
_NOT_DEVICE_PARAMS = {
    "self", "batch_idx", "dataloader_idx", "batch_indices", "trainer", "pl_module", "optimizer", "optimizer_idx",
}


def _declared_attribute(node: cst.AnnAssign, tree: "Tree") -> str | None:
    """The attribute of `self` whose class `node` declares: `attr: Cls` in a class body, or
    `self.attr: Cls = ...` in a method."""
    target = node.target
    if type(target) is cst.Name:
        return target.value if _body_class(node, tree) is not None else None
    if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value == "self":
        return target.attr.value
    return None


def _body_class(node: cst.AnnAssign, tree: "Tree") -> cst.ClassDef | None:
    """The class in whose body `node` is (a class-level declaration `attr: Cls`)."""
    block = tree.parent_of(tree.parent_of(node))  # SimpleStatementLine -> IndentedBlock -> ClassDef
    owner = tree.parent_of(block) if type(block) is cst.IndentedBlock else None
    return owner if type(owner) is cst.ClassDef else None


def _in_comprehension_of(tree: "Tree", loop: cst.CompFor, at: cst.CSTNode) -> bool:
    """Is `at` read within the comprehension whose `for` is `loop`, after it binds (its element, a
    later `for` or `if`), not in the iterable it reads?"""
    comprehension: cst.CSTNode | None = tree.parent_of(loop)
    while type(comprehension) is cst.CompFor:
        comprehension = tree.parent_of(comprehension)
    return comprehension is not None and tree.contains(comprehension, at) and not tree.contains(loop.iter, at)


def _indices(resolved: str, call: cst.Call) -> bool:
    """Does the torch function `resolved` return integer indices at this call (`torch.nonzero(m)`,
    `torch.where(m)`), which carry no autograd history?"""
    return resolved in INDEX_FUNCTIONS or (resolved in INDEX_FUNCTIONS_OF_ONE_ARGUMENT and len(call.args) == 1)


class Provenance:
    def __init__(self, model: "FileContext") -> None:
        self.model = model
        self._backwarded: dict[int, dict[str, list[cst.Call]]] = {}
        self._differentiating: dict[int, list[str]] = {}  # id(function of this file) -> the parameters it differentiates
        self._module_calls: dict[int, tuple[cst.Call, bool]] = {}  # id(call) -> (call, is_module_call(call))
        self._made_returns: dict[int, bool] = {}  # id(function of this file) -> returns_made_module
        # (id(scope), name, id(node of the tree)) -> reaching_bindings: 25k questions, 16k answers on the bench corpus
        self._reaching: dict[tuple[int, str, int], tuple["Binding", ...]] = {}
        self._scalar_returns: dict[int, bool] = {}  # `returns_scalars`, by function
        self._fills: dict[int, dict[str, list[tuple[cst.BaseExpression, cst.CSTNode]]]] = {}  # `_filled`, by scope
        # Whether a call named like a loss (`compute_loss(...)`, defined outside this file) is taken
        # to return a value with history; switched off to ask whether a finding rests on that guess.
        self.trust_names = True
        # While the calls that backward are being found, what a value's own history is may be asked (a
        # product's other factor, `differentiated_in`): its being differentiated is no evidence then
        self._finding_backwards = False

    # -- modules and backward -------------------------------------------------
    def _module_attribute(self, attr: str, at: cst.CSTNode) -> bool:
        """Is `self.<attr>` assigned a module constructor, or a module handed in (`self.infer =
        model`), in a class of the family of `at`'s method (anywhere in the file, outside a class)?"""
        owners = self._module_attributes.get(attr)
        if not owners:
            return False
        family = self.model.self_family(at)
        return family is None or any(owner is None or owner in family for owner in owners)

    @cached_property
    def _module_attributes(self) -> dict[str, list[int | None]]:
        """`self.<attr>` -> id() of each class whose method assigns it a module constructor or a
        module handed in (None outside any class)."""
        found: dict[str, list[int | None]] = {}
        for node in self.model.tree.by_type.get(cst.Assign, ()):
            handed_in = isinstance(node.value, cst.Name) and bool(named_like_module(node.value.value))
            if not (handed_in or self._is_module_factory(node.value)):
                continue
            for target in node.targets:
                t = target.target
                if isinstance(t, cst.Attribute) and root_name(t) == "self":
                    cls = self.model.method_class(node)
                    found.setdefault(t.attr.value, []).append(None if cls is None else id(cls))
        return found

    @cached_property
    def _class_kinds(self) -> dict[str, str]:
        """Classes of this file that subclass a module: "lightning" or "module". A base defined in
        this file or in another file of the project is one by its definition, whatever its name; a
        base out of sight is taken for a module where its name says so (`...Model`, `...Module`)."""
        classes = {cls.name.value: cls for cls in self.model.tree.by_type.get(cst.ClassDef, ())}
        kinds = {name: self._own_kind(cls, classes, {name}) for name, cls in classes.items()}
        return {name: kind for name, kind in kinds.items() if kind}

    def _own_kind(self, cls: cst.ClassDef, classes: dict[str, cst.ClassDef], seen: set[str]) -> str:
        kinds = [self._base_kind(base.value, classes, seen) for base in cls.bases if base.keyword is None]
        if "lightning" in kinds or "module" in kinds:
            return "lightning" if "lightning" in kinds else "module"
        derives = any(base.keyword is None and not reads_as_name(base.value, "object") for base in cls.bases)
        if derives and any(isinstance(stmt, cst.FunctionDef) and stmt.name.value == "forward" for stmt in cls.body.body):
            # subclasses a module of another file (a class of no base, or of `object`, is not
            # one, whatever its methods are called: skorch's `NeuralNet.forward`)
            return "module"
        return ""

    def _base_kind(self, base: cst.BaseExpression, classes: dict[str, cst.ClassDef], seen: set[str]) -> str:
        """"lightning", "module" or "" for a base class: by its definition where the file or the
        project has one, else by its name."""
        if type(base) is cst.Name and base.value in classes:
            return "" if base.value in seen else self._own_kind(classes[base.value], classes, seen | {base.value})
        facts = self.model.project.klass(base)
        if facts is not None:
            return facts["kind"] if facts["kind"] in ("module", "lightning") else ""
        text = self.model.imports.resolve(base) or ""
        if "Lightning" in text:
            return "lightning"
        return "module" if MODULE_CLASS_NAME.search(text) else ""

    def class_kinds(self) -> dict[str, str]:
        """Classes of this file that subclass a module, by name: "lightning" or "module"."""
        return self._class_kinds

    def makes_module(self, expr: cst.BaseExpression) -> bool:
        """Does `expr` construct (or place) a module rather than compute a tensor?"""
        return self._is_module_factory(expr)

    def is_module_factory(self, expr: cst.BaseExpression) -> bool:
        """Does `expr` make a module (`nn.Linear(4, 4).to(device)`, `AutoModel.from_pretrained(...)`, a
        module class of this file or of the project)?"""
        return self._is_module_factory(expr)

    def _is_module_factory(self, expr: cst.BaseExpression) -> bool:
        expr = unplaced(expr)  # Linear(4, 4).to(device).train()
        if type(expr) is not cst.Call:
            return False
        name = self.model.imports.resolve(expr.func) or ""
        if any(part.endswith(NON_MODEL_FACTORIES) for part in name.split(".")):
            return False  # `AutoTokenizer.from_pretrained(...)`: a tokenizer encodes, it runs no model
        if name in TENSOR_MODULES:
            return True  # a transform of the library table (`Resample(a, b).to(device)`)
        # what the project defines decides, whatever it is called (`self.setup(cfg)`, a `from_pretrained` of its own)
        model = self.model
        made = model.project.constructed(expr, record=False)
        if made is not None:  # a class of another file of the project
            return made.get("kind") in ("module", "lightning")
        if type(expr.func) is cst.Name and expr.func.value in model.calls.classes:
            return expr.func.value in self._class_kinds  # a class of this file, by its bases
        callees = model.local_callees(expr)
        if callees:  # a function of this file: by what it returns
            return all(self.returns_made_module(f) for f in callees)
        entry = model.project.function(expr, record=False)
        if entry is not None:  # a function of another file of the project: by its facts
            return bool(entry.get("returns_module"))
        return bool(_MODULE_FACTORIES.search(name))

    def returns_made_module(self, func: cst.FunctionDef) -> bool:
        """Does every value `func` returns (where it returns one) hold a module made or held as this file
        shows (`return Net(cfg).to(device)`, `model = Net(); return model`)?"""
        known = self._made_returns.get(id(func))
        if known is not None:
            return known
        self._made_returns[id(func)] = False  # a function that returns its own call makes nothing more
        model = self.model
        returned = [
            ret.value
            for ret in model.tree.descendants(func.body, cst.Return)
            if model.scope_of(ret) is func and ret.value is not None and not reads_as_name(ret.value, "None")
        ]
        found = bool(returned) and all(
            self._is_module_factory(value)
            or (type(value) in (cst.Name, cst.Attribute) and self._holds_made_module(value, value))
            or model.module_facts.holds_module(value, value)
            for value in returned
        )
        self._made_returns[id(func)] = found
        return found

    def is_module_call(self, call: cst.Call) -> bool:
        """Does this call run a model, module or criterion forward?"""
        # asked about most calls by several rules and summaries; the entry holds the call, so that
        # its id is not reused by a node built later (a fix's, a Store's container)
        found = self._module_calls.get(id(call))
        if found is None:
            found = self._module_calls[id(call)] = (call, self._is_module_call(call))
        return found[1]

    def _is_module_call(self, call: cst.Call) -> bool:
        func = call.func
        callee = callee_name(call) or ""
        if self.model.local_callees(call):
            return False  # a function of this file (its returns are checked instead)
        if self._predicts_without_grad(func):
            return False
        project = self.model.project
        if project.function(call, record=False) is not None or project.constructed(call, record=False) is not None:
            return False  # a function of another file of the project (its facts are asked instead), or a class
        # what runs: the object called, or the one whose `forward` is (`tf.forward(x)`)
        runner = func.value if type(func) is cst.Attribute and func.attr.value in MODULE_RUN_METHODS else func
        held = self._may_hold_an_object(runner, call)
        made = self.project_instance(runner, call) if held else None
        if made is not None:  # an object of a class of the project: a module or not, by its definition
            facts = project.constructed(made) or {}
            return facts.get("kind") in ("module", "lightning") and facts.get("call_grad") != "off"
        own = self.own_class_instance(runner, call) if held else None
        if own is not None:  # an object of a class of this file (`self.gen = Sampler(...)`): by its definition
            return own in self._class_kinds
        if held and self.constructed_class(func, call).startswith(OTHER_RUNTIME_MODELS):
            return False  # an ONNX Runtime model (the library table): no autograd
        if held and self._holds_made_module(runner, call):
            return True  # what made it decides, whatever it is called (`self.to_logits = nn.Linear(...)`)
        if _FACTORY_VERBS.match(callee):
            return False  # named like a factory (`build_model(cfg)`), and nothing here makes or defines it
        guessed = self._module_call_by_syntax(call)
        if guessed and self._made_without_a_module(runner, call):
            return False  # the file makes what it holds, and no module: `gen = np.random.default_rng(0).normal`, a lambda
        if guessed:
            project.function(call)  # asked: where the project defines the callee (`eeco_test_network`), its definition decides
        return guessed

    def _holds_made_module(self, runner: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does the file show every value `runner` may hold, each made by a module constructor
        (`is_module_factory`)?"""
        values = self.held_values(runner, at)
        return bool(values) and all(self._is_module_factory(v) for v in values)

    def _made_without_a_module(self, runner: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does the file show every value `runner` holds, each made by no module: a lambda, or a function
        of a host library (`np.random.default_rng(0).standard_normal`, the library table's `HOST_LIBRARIES`)?
        Then a name that modules are often held in (`gen`, `self.gen`) decides nothing."""
        values = [unplaced(v) for v in self.held_values(runner, at)]
        return bool(values) and all(
            type(v) is cst.Lambda or (type(v) is not cst.Name and self._made_by_host_library(v)) for v in values
        )

    def _made_by_host_library(self, expr: cst.BaseExpression) -> bool:
        """`np.random.default_rng(0)`, `np.random.RandomState(0).randn`: a call (or an attribute of
        one) that resolves into a host library."""
        while type(expr) in (cst.Attribute, cst.Call):
            if type(expr) is cst.Call and (self.model.imports.resolve(expr.func) or "").startswith(HOST_LIBRARIES):
                return True
            expr = expr.value if type(expr) is cst.Attribute else expr.func  # type: ignore[union-attr]
        return False

    def own_class_instance(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """The class of this file whose constructor made every value `expr` may hold at `at` (placed or
        not: `Net().to(device)`); None where the file does not show one."""
        classes = self.model.calls.classes
        names = set()
        for value in map(unplaced, self.instance_values(expr, at)):
            if type(value) is not cst.Call or type(value.func) is not cst.Name or value.func.value not in classes:
                return None
            names.add(value.func.value)
        return names.pop() if len(names) == 1 else None

    def runs_differentiating_object(self, call: cst.Call) -> bool:
        """Is `call` a call of an object whose class takes gradients on purpose (an explainer, an
        attack: its facts, or its methods in this file), which needs grad on to work?"""
        func = call.func
        if not self._may_hold_an_object(func, call):
            return False
        made = self.project_instance(func, call)
        if made is not None:
            return bool((self.model.project.constructed(made) or {}).get("differentiates"))
        own = self.own_class_instance(func, call)
        cls = self.model.calls.classes.get(own) if own else None
        return (cls is not None and differentiates(self.model, cls)) or self._returned_differentiating(func, call)

    def _returned_differentiating(self, func: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """`model, _ = make_and_restore_model(...)` and `model(...)`: is every binding of the name
        an element of what a project function of another file returns as an object that takes
        gradients on purpose (its facts' `returns_differentiating`)?"""
        if type(func) is not cst.Name:
            return False
        scope = self.model.scope_of(at)
        bindings = self.reaching_bindings(scope, func.value, at) or self.model.bindings(self.model.module, func.value)
        if not bindings:
            return False
        for binding in bindings:
            value, element = unpacked(binding)
            entry = self.model.project.function(value) if type(value) is cst.Call else None
            if not entry or (-1 if element is None else element) not in (entry.get("returns_differentiating") or ()):
                return False
        return True

    def _may_hold_an_object(self, func: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is `func` `self.<attr>`, or a name bound to a call's result somewhere (`gen = Sampler()`)?
        (Cheap: most calls name a function.)"""
        if type(func) is cst.Attribute:
            return type(func.value) is cst.Name and func.value.value == "self"
        if type(func) is not cst.Name:
            return False
        bindings = self.model.bindings(self.model.scope_of(at), func.value) + self.model.bindings(self.model.module, func.value)
        return any(type(b.value) is cst.Call for b in bindings)

    def _module_call_by_syntax(self, call: cst.Call) -> bool:
        func = call.func
        if type(func) is cst.Name:
            if func.value == "self":
                return self.in_module_class(call)
            if func.value[:1].isupper():
                return False  # a class: constructing, not calling, a module
            if named_like_module(func.value):
                return True
            scope = self.model.scope_of(call)
            return any(
                b.value is not None and self._is_module_factory(b.value)
                for b in self.model.bindings(scope, func.value) + self.model.bindings(self.model.module, func.value)
            )
        if type(func) is cst.Subscript:
            # `self.model["generator"](z)`, `nets[i](x)`: a module taken from a container of modules
            holder = func.value
            last = holder.attr.value if type(holder) is cst.Attribute else root_name(holder) or ""
            return bool(named_like_module(last) or named_like_module(last.rstrip("s")))
        if type(func) is cst.Attribute:
            attr = func.attr.value
            if attr in MODULE_RUN_METHODS:
                return True
            if root_name(func) == "self" and type(func.value) is cst.Name:
                return self._module_attribute(attr, call) or bool(named_like_module(attr))
            return bool(named_like_module(attr)) and not (
                self.model.imports.resolve(func) or ""
            ).startswith(("torch.", "numpy.", "np."))
        return False

    def _predicts_without_grad(self, func: cst.BaseExpression) -> bool:
        """`model(frame)` on an ultralytics `YOLO(...)` (or `RTDETR`, `SAM`, ...): its
        `__call__` is `predict`, which runs under inference mode."""
        return bool(self._ultralytics_models) and code(func) in self._ultralytics_models

    @cached_property
    def _ultralytics_models(self) -> set[str]:
        """Names and attributes (as written) assigned an ultralytics model object."""
        found: set[str] = set()
        for node in self.model.tree.by_type.get(cst.Assign, ()):
            if type(node.value) is cst.Call:
                made = self.model.imports.resolve(node.value.func) or ""
                if made.startswith("ultralytics.") and made.rsplit(".", 1)[-1][:1].isupper():
                    found.update(code(t.target) for t in node.targets)
        return found

    def class_kind(self, node: cst.CSTNode) -> str | None:
        """"lightning" or "module" when `node` is inside such a class of this file."""
        for anc in self.model.tree.ancestors(node):
            if isinstance(anc, cst.ClassDef):
                return self._class_kinds.get(anc.name.value)
        return None

    def _is_lightning_batch(self, name: str, scope: "Scope") -> bool:
        """A batch or an output that Lightning hands a hook on the device
        (`training_step(batch)`, `write_on_batch_end(..., prediction, ...)`)."""
        if not isinstance(scope, cst.FunctionDef) or name not in self.model.params(scope) or name in _NOT_DEVICE_PARAMS:
            return False
        hook = self.model.frameworks.hook(scope)
        if hook is not None:
            return hook.framework == "Lightning" and hook.per_step
        return scope.name.value.endswith("_step") and self.class_kind(scope) == "lightning"

    def in_module_class(self, node: cst.CSTNode) -> bool:
        """Is `node` inside a class of this file that subclasses a module?"""
        return self.class_kind(node) is not None

    def uses_with_history(self, expr: cst.CSTNode, names: set[str]) -> bool:
        """Does `expr` read one of `names` other than through `.item()`, `float()`, ...?"""
        if isinstance(expr, cst.Name):
            return expr.value in names
        if isinstance(expr, cst.Call):
            func = expr.func
            if (isinstance(func, cst.Attribute) and func.attr.value in _HISTORY_FREE_METHODS) or (
                isinstance(func, cst.Name) and func.value in _HISTORY_FREE_BUILTINS
            ):
                return False
        if isinstance(expr, cst.Attribute):
            return self.uses_with_history(expr.value, names)
        return any(self.uses_with_history(child, names) for child in iter_children(expr))

    def from_inputs(self, expr: cst.BaseExpression, func: cst.FunctionDef) -> bool:
        """Is `expr` computed, with history, from the inputs of `func` (a module's
        `forward`, whose inputs are activations that require grad in training)?"""
        names = self.model.params(func) - {"self"}
        changed = True
        while changed:
            changed = False
            for assign in self.model.tree.descendants(func.body, cst.Assign):
                if self.model.scope_of(assign) is not func or not self._reads_with_history(assign.value, names):
                    continue
                for target in assign.targets:
                    new = set(names_in(target.target)) - names
                    if new and isinstance(target.target, (cst.Name, cst.Tuple)):
                        names |= new
                        changed = True
        return self._reads_with_history(expr, names)

    def reads_with_history(self, expr: cst.CSTNode, names: set[str]) -> bool:
        """Does `expr` read one of `names` with its history (not through `.shape`, `.detach()`, ...)?"""
        return self._reads_with_history(expr, names)

    def _reads_with_history(self, expr: cst.CSTNode, names: set[str]) -> bool:
        """`uses_with_history`, where `.shape`, `.detach()`, `.numel()`, `torch.zeros(...)` read nothing."""
        kind = type(expr)  # exact types (LibCST's node classes have no subclasses): isinstance goes through ABCMeta
        if kind is cst.Name:
            return expr.value in names
        if kind is cst.Attribute:
            return expr.attr.value not in _NO_HISTORY_ATTRIBUTES and self._reads_with_history(expr.value, names)
        if kind is cst.Comparison:
            return False  # a bool (a bool tensor of tensors): it never requires grad
        if kind is cst.IfExp:
            # `v.detach() if torch.is_tensor(v) else v`: the branch where `v` is no tensor reads no history of it
            tensor, other = self._tensor_test(expr.test)
            body = names - {other} if other else names
            orelse = names - {tensor} if tensor else names
            return self._reads_with_history(expr.body, body) or self._reads_with_history(expr.orelse, orelse)
        if kind in _COMPREHENSIONS:
            return self._comprehension_reads(expr, names)
        if kind is cst.Call:
            func = expr.func
            resolved = self.model.imports.resolve(func) or ""
            if (
                _TORCH_NO_HISTORY.match(resolved)
                or _indices(resolved, expr)
                or resolved.startswith(HOST_LIBRARIES)  # `np.array([i / h, j / w])`: a host value
                or (type(func) is cst.Attribute and func.attr.value in _HISTORY_FREE_METHODS)
                or (type(func) is cst.Name and func.value in _HISTORY_FREE_BUILTINS)
            ):
                return False
            passed = self._passed_by_project_function(expr)
            if passed is not None:  # `flatten_dict(stats)`: its definition says which arguments it passes through
                return any(self._reads_with_history(arg, names) for arg in passed)
        return any(self._reads_with_history(child, names) for child in iter_children(expr))

    def _tensor_test(self, test: cst.BaseExpression) -> tuple[str | None, str | None]:
        """(the name `test` shows is a tensor where it holds, the name it shows is one where it
        fails): `torch.is_tensor(v)`, `isinstance(v, torch.Tensor)`, and either under `not`."""
        if type(test) is cst.UnaryOperation and type(test.operator) is cst.Not:
            tensor, other = self._tensor_test(test.expression)
            return other, tensor
        if type(test) is not cst.Call or not test.args or type(test.args[0].value) is not cst.Name:
            return None, None
        resolved = self.model.imports.resolve(test.func) or ""
        name = test.args[0].value.value
        if resolved == "torch.is_tensor" and len(test.args) == 1:
            return name, None
        if code(test.func) == "isinstance" and len(test.args) == 2:
            checked = self.model.imports.resolve(test.args[1].value) or ""
            if checked in TENSOR_CLASSES or checked == "torch.nn.Parameter":
                return name, None
        return None, None

    def _comprehension_reads(self, comp: cst.BaseExpression, names: set[str]) -> bool:
        """Does the comprehension's element read one of `names` with its history, or a name its
        loops bind from an iterable that does (`{k: v.detach() for k, v in d.items()}` reads none:
        a mapping's keys are its names, its values are detached)?"""
        carried = set(names)
        loop = comp.for_in  # type: ignore[attr-defined]
        while loop is not None:
            bound = set(target_names(loop.target))
            iterable = loop.iter
            if type(iterable) is cst.Call and method_name(iterable) == "items" and not iterable.args and type(loop.target) is cst.Tuple:
                keys = set(target_names(loop.target.elements[0].value))  # the keys of a mapping: names, not tensors
                bound -= keys
                carried -= keys
            if self._reads_with_history(iterable, carried):
                carried |= bound
            else:
                carried -= bound
            loop = loop.inner_for_in
        parts = [comp.key, comp.value] if type(comp) is cst.DictComp else [comp.elt]  # type: ignore[attr-defined]
        return any(self._reads_with_history(part, carried) for part in parts)

    def _passed_by_project_function(self, call: cst.Call) -> list[cst.BaseExpression] | None:
        """The arguments of `call` whose history a function of another file of the project returns
        (those of the parameters its facts say it passes through); None where it is no such function,
        or where it returns history of its own (then what it reads is not told apart)."""
        project = self.model.project
        if type(call.func) not in (cst.Name, cst.Attribute):
            return None
        facts = project.function(call)
        if facts is None:
            return None
        value = project.returned(facts)
        if value.history != NO:
            return None
        passed = (project.argument(facts, call, param) for param in value.passes)
        return [arg for arg in passed if arg is not None]

    def assumed_losses(self, parts: list[cst.BaseExpression], at: cst.CSTNode) -> list[str]:
        """The calls named like a loss (defined outside this file) that the history of `parts`
        rests on: empty when the parts carry history without that guess."""
        self.trust_names = False
        try:
            if any(self.carries_history(p, at) for p in parts):
                return []
        finally:
            self.trust_names = True
        scope = self.model.scope_of(at)
        names = set().union(*(names_in(p) for p in parts))
        exprs = [*parts] + [
            b.value for n in self.dependencies(names, scope) for b in self.model.bindings(scope, n) if b.value is not None
        ]
        calls = [c for e in exprs for c in ([e] if isinstance(e, cst.Call) else []) + self.model.tree.descendants(e, cst.Call)]
        return sorted({code(c.func) for c in calls if self.is_loss_call(c) and not _F_LOSSES.match(self.model.imports.resolve(c.func) or "")})

    def is_loss_call(self, call: cst.Call) -> bool:
        """A loss function of torch, or a call named like a loss whose definition is not in
        this file (a function of this file is asked for what it returns instead)."""
        name = self.model.imports.resolve(call.func) or ""
        if _F_LOSSES.match(name):
            return True
        if self.model.local_callees(call) or not self.trust_names:
            return False
        callee = callee_name(call) or ""
        if not named_like_loss(callee) or name.startswith(("torch.", "numpy.", "np.")):
            return False
        # defined in the project: what it returns is asked of its definition, whatever its name
        return self.project_callee(call, call) is None

    def backward_calls(self, region: cst.CSTNode) -> list[tuple[cst.Call, list[cst.BaseExpression]]]:
        """Calls in `region` that run backward, with the expressions they differentiate."""
        tree = self.model.tree
        if not tree.by_type.get(cst.Call):
            return []
        calls, keys = self._backward_candidates
        start = tree.order[id(region)]
        found = []
        for call in calls[bisect_left(keys, start) : bisect_right(keys, tree.end[id(region)])]:
            backwarded = self.backwarded_expressions(call)
            if backwarded is not None:
                found.append((call, backwarded))
        return found

    @cached_property
    def _backward_candidates(self) -> tuple[list[cst.Call], list[int]]:
        """The file's calls that `backwarded_expressions` may answer for, in source order, and their
        pre-order indexes: it answers None for every other call without asking anything, and
        `backward_calls` is asked of most loops and functions (100k calls looked at on the bench corpus)."""
        order = self.model.tree.order
        calls = sorted([*self._direct_backward_calls, *(call for call, _ in self._handed_to_backward.values())], key=lambda c: order[id(c)])
        return calls, [order[id(call)] for call in calls]

    @cached_property
    def _direct_backward_calls(self) -> list[cst.Call]:
        """`x.backward()`, `accelerator.backward(x)`, `torch.autograd.grad(x, ...)`: calls that differentiate themselves."""
        model = self.model
        resolve = model.imports.resolve
        return [
            call
            for call in model.tree.by_type.get(cst.Call, ())
            if (type(call.func) is cst.Attribute and call.func.attr.value in _BACKWARD_FUNCTIONS)
            or resolve(call.func) in _AUTOGRAD_DIFFERENTIATION
        ]

    @cached_property
    def _handed_to_backward(self) -> dict[int, tuple[cst.Call, list[cst.BaseExpression]]]:
        """id(call) -> (call, its arguments that the callee differentiates) for each call that hands a
        value to a function that backwards it: of this file (`self._backward(loss, opt)`, whose body
        runs `loss.backward()`; also through such calls, to a fixed point) or of another file of the
        project, by its facts (`backwards`)."""
        self._finding_backwards = True
        try:
            return self._find_handed_to_backward()
        finally:
            self._finding_backwards = False

    def _find_handed_to_backward(self) -> dict[int, tuple[cst.Call, list[cst.BaseExpression]]]:
        model = self.model
        summaries = model.summaries
        found: dict[int, tuple[cst.Call, list[cst.BaseExpression]]] = {}
        direct = [(call, exprs) for call in self._direct_backward_calls if (exprs := self.backwarded_expressions(call))]
        imports = model.imports
        for call in model.tree.by_type.get(cst.Call, ()):
            root = (dotted(call.func) or "").partition(".")[0]
            if call.args and root and (root in imports.aliases or root in imports.relative):
                handed = model.project.differentiated_arguments(call)
                if handed:
                    found[id(call)] = (call, handed)
        differentiating: dict[int, list[str]] = {}
        for _ in range(_DIFFERENTIATION_ROUNDS):  # each round reaches one more level of helpers
            sites: dict[int, tuple[cst.FunctionDef, list[tuple[cst.Call, list[cst.BaseExpression]]]]] = {}
            for call, exprs in [*direct, *found.values()]:
                scope = model.scope_of(call)
                if type(scope) is cst.FunctionDef:
                    sites.setdefault(id(scope), (scope, []))[1].append((call, exprs))
            named = set()
            for key, (func, calls) in sites.items():
                params = summaries.differentiated_in(func, calls)
                if params:
                    named.add(func.name.value)
                if params != differentiating.get(key, []):
                    differentiating[key] = params
            before = len(found)
            for call in model.tree.by_type.get(cst.Call, ()):
                func = call.func
                name = func.value if type(func) is cst.Name else func.attr.value if type(func) is cst.Attribute else None
                if name not in named or not call.args or id(call) in found:
                    continue
                handed = [
                    arg
                    for callee in model.local_callees(call)
                    for param in differentiating.get(id(callee), ())
                    if (arg := summaries.argument_for(call, callee, param)) is not None
                ]
                if handed:
                    found[id(call)] = (call, handed)
            if len(found) == before:
                break
        self._differentiating = differentiating
        return found

    def differentiated_parameters(self, func: cst.FunctionDef) -> list[str]:
        """The parameters of `func` (of this file) whose own values it differentiates."""
        self._handed_to_backward  # noqa: B018 (computed with it)
        return self._differentiating.get(id(func), [])

    def backwarded_expressions(self, call: cst.Call) -> list[cst.BaseExpression] | None:
        handed = self.__dict__.get("_handed_to_backward", {}).get(id(call))
        if handed is not None:
            return handed[1]
        return self._differentiated_by(call)

    def _differentiated_by(self, call: cst.Call) -> list[cst.BaseExpression] | None:
        """What a call of torch's differentiation (`loss.backward()`, `torch.autograd.grad(out, x)`,
        `accelerator.backward(loss)`) differentiates; None for any other call."""
        func = call.func
        name = self.model.imports.resolve(func) or ""
        if name in _AUTOGRAD_DIFFERENTIATION:
            arg = call_arg(call, 0, "tensors" if name.endswith("backward") else "outputs")
            return [arg.value] if arg else []
        if type(func) is not cst.Attribute:
            return None
        attr = func.attr.value
        if attr == "backward":
            if call.args and not call.args[0].keyword:
                if type(func.value) is cst.Name and _accelerator_like(func.value.value):
                    return [call.args[0].value]  # accelerator.backward(loss), fabric.backward(loss)
                if self.receiver_class(func.value, call) in BACKWARD_OF_ARGUMENT:
                    return [call.args[0].value]  # self.accelerator.backward(loss) in a Trainer subclass
                if self.value_kind(func.value, call) != "tensor":
                    # `model.backward(loss)` on what nothing shows to be a tensor: an engine's backward
                    # (DeepSpeed's `engine.backward(loss)`) differentiates its argument, a tensor's its receiver
                    return [func.value, call.args[0].value]
            return [func.value]
        if attr in _BACKWARD_FUNCTIONS and call.args:
            return [call.args[0].value]
        return None

    def backwarded_names(self, region: cst.CSTNode) -> set[str]:
        names: set[str] = set()
        for _, exprs in self.backward_calls(region):
            for expr in exprs:
                names.update(differentiated_names(expr))
        return names

    def graph_siblings(self, names: set[str], scope: "Scope") -> set[str]:
        """`names` plus the names unpacked with them from one call (`loss, info = step(b)`):
        their values come out of one forward, so backward through one frees the other's saved tensors."""
        found = set(names)
        for name in names:
            for binding in self.model.bindings(scope, name):
                node = binding.node
                if isinstance(node, cst.Assign) and isinstance(node.value, cst.Call):
                    for target in node.targets:
                        if isinstance(target.target, (cst.Tuple, cst.List)):
                            found.update(target_names(target.target))
        return found

    def integer_tensor(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is `expr` a tensor made with an integer dtype (`torch.zeros([], dtype=torch.int)`)?
        Such a tensor never requires grad: nothing added into it keeps a graph."""
        if not isinstance(expr, cst.Name):
            return False
        values = [b.value for b in self.model.bindings(self.model.scope_of(at), expr.value)]
        made = [v for v in values if isinstance(v, cst.Call)]
        return bool(made) and all(self._integer_factory(v) for v in made)

    def _integer_factory(self, call: cst.Call) -> bool:
        if not (self.model.imports.resolve(call.func) or "").startswith("torch."):
            return False
        dtype = keyword_arg(call, "dtype")
        return dtype is not None and (self.model.imports.resolve(dtype.value) or "").rsplit(".", 1)[-1] in INTEGER_DTYPES

    def dependencies(self, names: set[str], scope: "Scope") -> set[str]:
        """`names` plus every name their assignments in `scope` read, transitively."""
        seen = set(names)
        todo = list(names)
        while todo:
            name = todo.pop()
            for binding in self.model.bindings(scope, name):
                if binding.value is None:
                    continue
                for dep in names_in(binding.value):
                    if dep not in seen:
                        seen.add(dep)
                        todo.append(dep)
        return seen

    # -- may this value carry autograd history? --------------------------------
    def carries_history(self, expr: cst.BaseExpression, at: cst.CSTNode | None = None) -> bool:
        at = at if at is not None else expr
        scope = self.model.scope_of(at)
        if type(expr) is cst.Name and self._grad_leaf(expr.value, scope, at):
            return False  # a leaf that requires grad has no graph of its own: what is computed from it has
        return self._history(expr, scope, at, set())

    # -- leaves that require grad: optimized inputs ------------------------------
    def makes_grad_leaf(self, value: cst.BaseExpression) -> bool:
        """`x.requires_grad_()` (`True`, or no argument) and `torch.zeros(n, requires_grad=True)`: a tensor
        that autograd records every operation on (only leaves may change `requires_grad`, so it is one)."""
        if type(value) is not cst.Call:
            return False
        if type(value.func) is cst.Attribute and value.func.attr.value == GRAD_LEAF_METHOD:
            arg = call_arg(value, 0, GRAD_LEAF_KEYWORD)
            return arg is None or bool_constant(arg.value) is True
        flag = keyword_arg(value, GRAD_LEAF_KEYWORD)
        return flag is not None and bool_constant(flag.value) is True and (self.model.imports.resolve(value.func) or "").startswith("torch.")

    @cached_property
    def _leaf_statements(self) -> dict[tuple[int, str], list[cst.CSTNode]]:
        """(scope, name) -> the statements that make the tensor a name holds require grad in place
        (`x.requires_grad_()`, `x.requires_grad = True`)."""
        found: dict[tuple[int, str], list[cst.CSTNode]] = {}
        tree = self.model.tree
        for call in tree.by_type.get(cst.Call, ()):
            if type(tree.parent_of(call)) is cst.Expr and type(call.func) is cst.Attribute and type(call.func.value) is cst.Name:
                if self.makes_grad_leaf(call):
                    key = (id(self.model.scope_of(call)), call.func.value.value)
                    found.setdefault(key, []).append(call)
        for assign in tree.by_type.get(cst.Assign, ()):
            target = assign.targets[0].target
            if (
                type(target) is cst.Attribute
                and target.attr.value == GRAD_LEAF_KEYWORD
                and type(target.value) is cst.Name
                and bool_constant(assign.value) is True
            ):
                found.setdefault((id(self.model.scope_of(assign)), target.value.value), []).append(assign)
        return found

    def _made_leaf_before(self, name: str, scope: "Scope", at: cst.CSTNode) -> bool:
        """Is `name` made to require grad in place (`name.requires_grad_()`) before `at`, in its scope,
        after the binding that reaches `at`?"""
        made = self._leaf_statements.get((id(scope), name))
        if not made:
            return False
        order = self.model.tree.order
        position = order[id(at)]
        bound = [order[id(b.node)] for b in self.reaching_bindings(scope, name, at) if order[id(b.node)] < position]
        latest = max(bound, default=-1)
        return any(latest < order[id(m)] < position for m in made)

    def _iterated_parameters(self, bindings: list["Binding"], thawed: bool = True) -> bool:
        """Do `bindings` (all of them, at least one) bind their name to a parameter of a module (with
        `thawed`, of one not frozen), as a loop over its parameters (`for n, p in model.named_parameters()`,
        `for ema_p, p in zip(ema.parameters(), model.parameters())`)?"""
        for binding in bindings:
            loop = binding.node
            if type(loop) is not cst.For:
                return False
            it, target = _iterated_element(loop.iter, loop.target, binding.name)
            if type(it) is not cst.Call or type(it.func) is not cst.Attribute or it.func.attr.value not in PARAMETER_ITERATORS:
                return False
            index = PARAMETER_ITERATORS[it.func.attr.value]
            if index is not None:
                elements = target.elements if type(target) in (cst.Tuple, cst.List) else ()
                target = elements[index].value if len(elements) > index else None
            if type(target) is not cst.Name or target.value != binding.name:
                return False
            if thawed and self.model.module_facts.frozen(it.func.value, loop):
                return False
        return bool(bindings)

    def module_parameter(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does `expr`, a name, hold a parameter of a module at `at` (a loop over its parameters)? It
        outlives every step: what is written into it in place stays."""
        if type(expr) is not cst.Name:
            return False
        scope = self.model.scope_of(at)
        return self._iterated_parameters(self.reaching_bindings(scope, expr.value, at), thawed=False)

    def grad_leaf(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does `expr`, a name, hold a leaf that requires grad at `at` (one made so, a parameter of a
        module not frozen)? It has no graph of its own; an operation on it records one, in place too."""
        return type(expr) is cst.Name and self._grad_leaf(expr.value, self.model.scope_of(at), at)

    def runs_on_grad_leaf(self, call: cst.Call) -> bool:
        """Is an argument of `call` a name that holds, there, a tensor the code made require grad
        (`pos = pos.requires_grad_()`, `x = torch.zeros(n, requires_grad=True)`)? A model run on it is
        differentiated with respect to its input on purpose (forces, saliency), whatever its caller reads."""
        return any(self.grad_leaf(arg.value, call) for arg in call.args if arg.star == "")

    def _grad_leaf(self, name: str, scope: "Scope", at: cst.CSTNode) -> bool:
        """Does `name` hold, at `at`, a leaf tensor made to require grad (and nothing else): one made so,
        or a module's parameter?"""
        bindings = self.reaching_bindings(scope, name, at)
        if self._iterated_parameters(bindings):
            return True
        if bindings and all(b.value is not None and self.makes_grad_leaf(b.value) for b in bindings):
            return not any(  # `loss = f(x).requires_grad_()`: a value with a graph stays one
                type(b.value.func) is cst.Attribute and self._history(b.value.func.value, scope, b.node, self._own_binding(b, scope))
                for b in bindings
            )
        # `if on_mps: loss.requires_grad_(True)` after `loss = criterion(...)`: the loss keeps its graph
        return self._made_leaf_before(name, scope, at) and not any(
            b.value is not None and self._history(b.value, scope, b.node, set()) for b in bindings
        )

    def _own_binding(self, binding: "Binding", scope: "Scope") -> set:
        """A guard for reading `binding`'s value where no earlier binding of its name reaches it (`pos =
        pos.requires_grad_()`, `pos` a parameter): there the name is what the scope was handed, not the
        binding itself, which every binding of the scope would otherwise stand for."""
        key = (id(scope), binding.name, id(binding.node))
        reaching = self.reaching_bindings(scope, binding.name, binding.node)
        return {key} if any(b.node is binding.node for b in reaching) else set()

    def carries_history_element(self, call: cst.Call, index: int, at: cst.CSTNode) -> bool:
        """May element `index` of the tuple `call` returns carry autograd history?"""
        return self._call_history(call, self.model.scope_of(at), at, set(), index)

    def _history(self, expr: cst.BaseExpression, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        kind = type(expr)  # exact types (LibCST's node classes have no subclasses): isinstance goes through ABCMeta
        if kind is cst.Name:
            return self._name_history(expr.value, scope, at, guard)
        if kind is cst.Attribute:
            if expr.attr.value in _NO_HISTORY_ATTRIBUTES:
                return False
            if type(expr.value) is cst.Name and expr.value.value == "self":
                return False
            return self._history(expr.value, scope, at, guard)
        if kind is cst.Subscript:
            return self._history(expr.value, scope, at, guard)
        if kind is cst.Call:
            return self._call_history(expr, scope, at, guard)
        if kind is cst.BinaryOperation:
            return self._history(expr.left, scope, at, guard) or self._history(expr.right, scope, at, guard)
        if kind is cst.UnaryOperation:
            return type(expr.operator) is not cst.Not and self._history(expr.expression, scope, at, guard)
        if kind is cst.Tuple or kind is cst.List or kind is cst.Set:
            return any(self._history(e.value, scope, at, guard) for e in expr.elements)
        if kind is cst.Dict:
            return any(
                type(e) is cst.DictElement and self._history(e.value, scope, at, guard) for e in expr.elements
            )
        if kind is cst.IfExp:
            if type(expr.orelse) is cst.Name and expr.orelse.value == self.tensor_tested(expr.test):
                return self._history(expr.body, scope, at, guard)  # `v.detach() if torch.is_tensor(v) else v`
            if type(expr.body) is cst.Name and expr.body.value == self._number_tested(expr.test):
                return self._history(expr.orelse, scope, at, guard)  # `v if isinstance(v, float) else v.item()`
            return self._history(expr.body, scope, at, guard) or self._history(expr.orelse, scope, at, guard)
        if kind is cst.Await:
            return self._history(expr.expression, scope, at, guard)
        if kind is cst.NamedExpr:
            return self._history(expr.value, scope, at, guard)
        # read where the element is: a name the comprehension binds is its own variable there
        if kind is cst.ListComp or kind is cst.GeneratorExp or kind is cst.SetComp:
            return self._history(expr.elt, scope, expr.elt, guard)
        if kind is cst.DictComp:
            return self._history(expr.value, scope, expr.value, guard)
        return False  # numbers, strings, comparisons, boolean operations, lambdas

    def _call_history(
        self, call: cst.Call, scope: "Scope", at: cst.CSTNode, guard: set, element: int | None = None
    ) -> bool:
        func = call.func
        resolved = self.model.imports.resolve(func) or ""
        args_history = lambda: any(self._history(a.value, scope, at, guard) for a in call.args)  # noqa: E731
        if self.makes_grad_leaf(call):
            return True  # read as an operand: what is computed from it records a graph
        if resolved in GRAPH_OF_DERIVATIVE:
            flag = keyword_arg(call, GRAPH_OF_DERIVATIVE[resolved])
            return flag is not None and bool_constant(flag.value) is True  # `create_graph=True`: the derivative has a graph
        if resolved in CONCATENATIONS and call.args and type(call.args[0].value) is cst.Name:
            # `outs.append(model(x))` in a loop, then `torch.cat(outs)`: it joins what the list collected
            name = call.args[0].value.value
            bindings = self.reaching_bindings(scope, name, at)
            if bindings and any(self._history(v, scope, s, guard) for s, v in self._collected(name, scope, at, bindings)):
                return True
        if resolved.startswith("torch."):
            if _indices(resolved, call):
                return False
            if resolved.startswith("torch.nn.functional."):
                return bool(_F_LOSSES.match(resolved)) or args_history()
            if _TORCH_NO_HISTORY.match(resolved):
                return False
            return args_history()
        if resolved.startswith(HOST_LIBRARIES):
            return False
        if resolved in PASS_THROUGH_FUNCTIONS:
            return args_history()
        run = self.run_callables(call)
        if run:  # `optimizer.step(closure)` returns what `closure()` returns (its summary)
            run_call = cst.Call(func=cst.Name(run[0].name.value))
            return any(self.callee_value(run_call, f, element, lambda arg: False).carries for f in run)
        handed = self.handed_functions(call)
        if handed:  # `fun(batch)`, where every call of this file hands `fun` a function of this file
            key = ("handed", id(call), element)
            if key in guard:
                return False
            guard.add(key)
            arg_history = lambda arg: self._history(arg, scope, at, guard)  # noqa: E731
            return any(self.callee_value(_as_called(call, f), f, element, arg_history).carries for f in handed)
        made = self.model.handed.constructor_callables(call)  # type: ignore[attr-defined]
        if made is not None:  # `self._compute(batch)`, handed `self.batch_energy` by every construction of its class
            local, others = made
            arg_history = lambda arg: self._history(arg, scope, at, guard)  # noqa: E731
            return any(v.element(element).carries if element is not None else v.carries for v in others) or any(
                self.callee_value(_as_called(call, f), f, element, arg_history).carries for f in local
            )
        if type(func) is cst.Name:
            if func.value in _HISTORY_FREE_BUILTINS:
                return False
            if func.value in _PASS_THROUGH_BUILTINS:
                return args_history()
        if type(func) is cst.Attribute and func.attr.value in _HISTORY_FREE_METHODS:
            return False
        if (
            type(func) is cst.Attribute
            and func.attr.value in _NUMBER_METHOD_NAMES  # first: the receiver's class is looked up only then
            and func.attr.value in NUMBER_METHODS.get(self.constructed_class(func.value, at), ())
        ):
            return False  # `svi.evaluate_loss(x)` of pyro's SVI: a float, by the library's model
        if (
            type(func) is cst.Attribute
            and func.attr.value in _PASSING_METHOD_NAMES  # first: the receiver's class is looked up only then
            and func.attr.value in HISTORY_PASSING_METHODS.get(self.receiver_class(func.value, at), ())
        ):
            return bool(call.args) and self._history(call.args[0].value, scope, at, guard)  # `accelerator.gather(x)` is `x`
        callees = self.model.local_callees(call)
        if callees:  # a function of this file: its summary says what it returns
            # once per question and element (`a, b = f(x)`: `b` is asked apart from `a`)
            key = ("call", id(call), element)
            if key in guard:
                return False
            guard.add(key)
            arg_history = lambda arg: self._history(arg, scope, at, guard)  # noqa: E731
            return any(self.callee_value(call, f, element, arg_history).carries for f in callees)
        overridden = self.returned_by_overrides(call)
        if overridden is not None:  # `self.train_step(batch)` left to subclasses of other files: their facts say
            return (overridden[0].element(element) if element is not None else overridden[0]).carries
        closure = self.project_closure(call, at)
        if closure is not None:  # `score(x)` after `score = make_scorer(model)` of another file: its facts say
            return closure.element(element).history != NO if element is not None else closure.history != NO
        external = self.project_callee(call, at)
        if external is not None:  # a function or method of another file of the project: its facts say
            value = self.model.project.returned(external, element)
            if value.history != NO:
                return True
            passed = (self.model.project.argument(external, call, param) for param in value.passes)
            return any(arg is not None and self._history(arg, scope, at, guard) for arg in passed)
        if self.model.project.constructed(call, record=False) is not None:
            return False  # an object of a class of the project, made here
        if self.is_module_call(call) or self.is_loss_call(call):
            if self.model.module_facts.frozen(func, call):  # type: ignore[attr-defined]
                return args_history()  # its parameters require no grad: only its inputs' history
            if self.model.model_runs.parameter_free(call):  # type: ignore[attr-defined]
                return args_history()  # it holds no parameter (`self.rvm = RelativeVolumeMel()`): the same
            return True
        if type(func) is cst.Attribute:
            if self._history(func.value, scope, at, guard):
                return True
            if func.attr.value in _ARITHMETIC_METHODS:
                return args_history()
        return False

    def returned_by_overrides(self, call: cst.Call) -> tuple[Value, bool] | None:
        """`self.train_step(batch)` in a class that leaves `train_step` to its subclasses, where those of
        other files of the project return a value with history: what they return, and whether each
        backwards what it returns (`ProjectFacts.returned_by_overrides`); None otherwise."""
        cls = self.model.eval_regions.left_to_subclasses(call)  # type: ignore[attr-defined]
        if cls is None:
            return None
        return self.model.project.returned_by_overrides(cls.name.value, call.func.attr.value)  # type: ignore[attr-defined]

    def differentiated_by_callee(self, call: cst.Call, element: int | None) -> bool:
        """Does the function that `call` runs backward the graph of what it returns (element `element`)?
        A function of this file (called, run by the callee it is handed to, or handed in by every
        caller), by its summary; the overrides of other files that a template call reaches, by their facts."""
        callees = self.model.local_callees(call) + self.run_callables(call) + self.handed_functions(call)
        if any(self.model.summaries.backwards_return(f, element) for f in callees):
            return True
        overridden = self.returned_by_overrides(call) if not callees else None
        return overridden is not None and overridden[1]

    def project_closure(self, call: cst.Call, at: cst.CSTNode) -> Value | None:
        """`score(x)`, where every binding of `score` that reaches it is the result of a factory of another
        file of the project that returns a closure (`score = make_scorer(model)`): what calling that closure
        returns, by the factory's facts; None where a binding is anything else."""
        func = call.func
        if type(func) is not cst.Name:
            return None
        bindings = self.reaching_bindings(self.model.scope_of(at), func.value, at)
        values = []
        for binding in bindings:
            made, element = unpacked(binding)
            facts = self.model.project.function(made) if type(made) is cst.Call and element is None else None
            if not facts or "closure_returns" not in facts:
                return None
            values.append(Value.from_json(facts["closure_returns"]))
        return join(values) if values else None

    def project_callee(self, call: cst.Call, at: cst.CSTNode) -> dict | None:
        """The facts of the function of another file of the project that `call` runs: a function it
        names (`get_reward(...)`), or a method of an object made from a class of the project
        (`meter.update(...)` after `meter = Meter()`, `self.meter.update(...)`), or such an object
        called itself (`criterion(out, y)` after `criterion = LossModule()`: its `__call__`, else
        its `forward`, as `nn.Module.__call__` runs)."""
        project = self.model.project
        found = project.function(call)
        if found is None and type(call.func) is cst.Attribute:
            made = self.project_instance(call.func.value, at)
            found = project.method(made, call.func.attr.value) if made is not None else None
        if found is None and type(call.func) in (cst.Name, cst.Attribute):
            made = self.project_instance(call.func, at)
            if made is not None:
                found = project.method(made, "__call__") or project.method(made, "forward")
        if found is None and type(call.func) is cst.Attribute:
            annotated = self.annotated_class(call.func.value, at)  # `self.model: flair.nn.Model = model`
            found = project.method_of_class(annotated, call.func.attr.value) if annotated else None
        return found

    def annotated_class(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """The class (as written) that `expr` is annotated with: a parameter of the function (never bound
        again), or `self.<attr>` annotated in its class (`self.model: Model = model`) or set there from an
        annotated parameter (`def __init__(self, model: Model): self.model = model`); None otherwise."""
        model = self.model
        scope = model.scope_of(at)
        if type(expr) is cst.Name:
            if not isinstance(scope, cst.FunctionDef) or model.bindings(scope, expr.value):
                return None
            return _annotated_parameter(scope, expr.value)
        if not (type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self"):
            return None
        cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
        if cls is None:
            return None
        found: set[str | None] = set()
        for node in model.tree.descendants(cls, cst.AnnAssign):
            if code(node.target) == code(expr):
                found.add(dotted(node.annotation.annotation))
        for node in model.tree.descendants(cls, cst.Assign):
            if any(code(t.target) == code(expr) for t in node.targets):
                method = model.scope_of(node)
                value = node.value
                found.add(
                    _annotated_parameter(method, value.value)
                    if type(value) is cst.Name and isinstance(method, cst.FunctionDef)
                    else None
                )
        return found.pop() if len(found) == 1 else None

    def project_instance(self, expr: cst.BaseExpression, at: cst.CSTNode) -> cst.Call | None:
        """The constructor call (`Meter()`) of a class of another file of the project that made every
        value `expr` (a name, or `self.<attr>`) may hold at `at`; None when the file does not show one."""
        project = self.model.project
        values = [unplaced(v) for v in self.instance_values(expr, at)]  # placed or not: `Loss(t).to(device)`
        calls = [v for v in values if type(v) is cst.Call and type(v.func) in (cst.Name, cst.Attribute)]
        if not calls or len(calls) != len(values):
            return None
        made = [v for v in calls if project.constructed(v) is not None]
        names = {dotted(v.func) for v in made}
        return made[0] if len(made) == len(values) and len(names) == 1 else None

    def held_values(self, expr: cst.BaseExpression, at: cst.CSTNode) -> list[cst.BaseExpression]:
        """The expressions whose values `expr` may hold at `at`, as far as this file shows: a name's
        bindings, `self.<attr>`'s assignments, and an element of a container built from such
        expressions (`metrics[k]` of `{n: Meter() for n in names}`, `defaultdict(Meter)`, a list
        of them); [] where it does not show them."""
        if type(expr) is cst.Name:
            return [value for value, _ in self._bound_values(expr.value, self.model.scope_of(at), at)]
        if type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self":
            return self.self_attribute_values(expr.attr.value, at)
        if type(expr) is cst.Subscript:
            if type(expr.value) is cst.Name and expr.value.value == "self":
                # `self[k]` in a method of a mapping class: the value its missing keys are made with
                cls = self.model.method_class(at)
                return self._missing_values(cls) if cls is not None else []
            elements = [self._element_values(v) for v in self.held_values(expr.value, at)]
            return [e for values in elements for e in values] if elements and all(elements) else []
        return []

    def _element_values(self, container: cst.BaseExpression) -> list[cst.BaseExpression]:
        """What the elements of a container built by `container` are built from (`_element_values`),
        also of an instance of a class of this file whose missing keys a factory fills (`_missing_values`)."""
        if type(container) is cst.Call and type(container.func) is cst.Name:
            cls = self.model.calls.classes.get(container.func.value)
            if cls is not None:
                return self._missing_values(cls)
        return _element_values(container, self.model.imports)

    def _missing_values(self, cls: cst.ClassDef) -> list[cst.BaseExpression]:
        """The value a `collections.defaultdict` subclass of this file makes for a missing key: what the
        factory its `__init__` hands `super().__init__` makes (`super().__init__(partial(Meter, n))`, or a
        name bound to one there); [] where the class shows none."""
        imports = self.model.imports
        if not any(imports.resolve(base.value) == "collections.defaultdict" for base in cls.bases):
            return []
        init = next((s for s in cls.body.body if type(s) is cst.FunctionDef and s.name.value == "__init__"), None)
        for call in self.model.tree.descendants(init, cst.Call) if init is not None else ():
            func = call.func
            if not (
                type(func) is cst.Attribute
                and func.attr.value == "__init__"
                and type(func.value) is cst.Call
                and code(func.value.func) == "super"
                and call.args
                and call.args[0].keyword is None
                and not call.args[0].star
            ):
                continue
            factory = call.args[0].value
            if type(factory) is cst.Name and factory.value not in self.model.params(init):
                bound = self.model.bindings(init, factory.value)
                factory = bound[0].value if len(bound) == 1 and bound[0].value is not None else None
            return [made_by_factory(factory, imports)] if factory is not None else []
        return []

    def self_attribute_values(self, attr: str, at: cst.CSTNode) -> list[cst.BaseExpression]:
        """The values assigned to `self.<attr>` anywhere in the file, in source order, that the
        `self` of `at`'s method may hold: those of its class's family (`Scopes.class_family`), not
        those of an unrelated class of the file with an attribute of the same name."""
        family = self.model.self_family(at)
        return [
            value
            for owner, value in self._self_attribute_table.get(attr, ())
            if family is None or owner is None or owner in family
        ]

    @cached_property
    def _attribute_assignments(self) -> dict[tuple[int, str], list[tuple[cst.Assign, cst.BaseExpression]]]:
        """(id() of the scope, `obj.attr` as written) -> each assignment of that attribute of a name
        other than `self` in the scope, with its value: what the attribute holds after it."""
        table: dict[tuple[int, str], list[tuple[cst.Assign, cst.BaseExpression]]] = {}
        for node in self.model.tree.by_type.get(cst.Assign, ()):
            for t in node.targets:
                target = t.target
                if type(target) is cst.Attribute and type(target.value) is cst.Name and target.value.value != "self":
                    key = (id(self.model.scope_of(node)), code(target))
                    table.setdefault(key, []).append((node, node.value))
        return table

    @cached_property
    def _self_attribute_table(self) -> dict[str, list[tuple[int | None, cst.BaseExpression]]]:
        """`self.<attr>` -> (id() of the class whose method assigns it, or None outside any, the value
        assigned), for every assignment of the file, in source order."""
        table: dict[str, list[tuple[int | None, cst.BaseExpression]]] = {}
        for node in self.model.tree.by_type.get(cst.Assign, ()):
            attrs = {
                t.target.attr.value
                for t in node.targets
                if isinstance(t.target, cst.Attribute)
                and isinstance(t.target.value, cst.Name)
                and t.target.value.value == "self"
            }
            if attrs:
                cls = self.model.method_class(node)
                owner = None if cls is None else id(cls)
                for attr in attrs:
                    table.setdefault(attr, []).append((owner, node.value))
        # `self.register_buffer("bank", torch.zeros(n))`: the module's attribute `bank` is that tensor
        for call in self.model.tree.by_type.get(cst.Call, ()):
            position = ATTRIBUTE_REGISTRARS.get(method_name(call) or "")
            if position is None or type(call.func) is not cst.Attribute or code(call.func.value) != "self":
                continue
            name, value = call_arg(call, 0, "name"), call_arg(call, position)
            if name is not None and type(name.value) is cst.SimpleString and value is not None:
                cls = self.model.method_class(call)
                table.setdefault(name.value.evaluated_value, []).append((None if cls is None else id(cls), value.value))
        return table

    @cached_property
    def _declared_classes(self) -> dict[str, list[tuple[int | None, str, cst.BaseExpression]]]:
        """`self.<attr>` -> (id() of the class that declares it, the class declared as written, that
        class) for each declaration (`alg: PPO` in a class body, a dataclass field `aspect_model:
        AspectModel`, `self.meter: Meter = ...` in a method)."""
        declared: dict[str, list[tuple[int | None, str, cst.BaseExpression]]] = {}
        tree = self.model.tree
        for node in tree.by_type.get(cst.AnnAssign, ()):
            attr = _declared_attribute(node, tree)
            cls = node.annotation.annotation
            if attr is not None and type(cls) in (cst.Name, cst.Attribute) and dotted(cls):
                owner = self.model.method_class(node) if type(node.target) is cst.Attribute else _body_class(node, tree)
                declared.setdefault(attr, []).append((None if owner is None else id(owner), dotted(cls), cls))  # type: ignore[arg-type]
        return declared

    def declared_instance(self, expr: cst.BaseExpression, at: cst.CSTNode) -> cst.Call | None:
        """An instance of the class declared for `self.<attr>` by the class family of `at`'s method
        (another class of the file may declare its own attribute of that name), as a call of the
        class (a value of no tree: ask only for the class it names); None where no one class is declared."""
        if type(expr) is not cst.Attribute or type(expr.value) is not cst.Name or expr.value.value != "self":
            return None
        family = self.model.self_family(at)
        classes = {
            name: cls
            for owner, name, cls in self._declared_classes.get(expr.attr.value, ())
            if family is None or owner is None or owner in family
        }
        return cst.Call(func=next(iter(classes.values()))) if len(classes) == 1 else None

    def takes_gradients(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is `expr` at `at` an object of a class whose own methods differentiate (`SDFNetwork.gradient`
        calls `torch.autograd.grad`: its facts, or its methods in this file)? What runs it may take
        gradients through it, with grad on."""
        value = unplaced(expr)
        values = [value] if type(value) is cst.Call else [unplaced(v) for v in self.instance_values(expr, at)]
        return any(type(v) is cst.Call and self._made_taking_gradients(v) for v in values)

    def _made_taking_gradients(self, made: cst.Call) -> bool:
        """Does `made` construct an object of a class whose own methods differentiate (`takes_gradients`)?"""
        facts = self.model.project.constructed(made)
        if facts is not None:
            return bool(facts.get("takes_gradients"))
        cls = self.model.calls.classes.get(made.func.value) if type(made.func) is cst.Name else None
        return cls is not None and differentiates(self.model, cls, strict=True)

    def built_with_gradient_takers(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Was the object `expr` holds at `at` built handing it an object that takes gradients
        (`takes_gradients`: `NeuSRenderer(nerf, sdf_network, ...)`)? Its methods may differentiate
        through what it holds."""
        return any(
            type(value) is cst.Call and any(self.takes_gradients(arg.value, value) for arg in value.args)
            for value in map(unplaced, self.instance_values(expr, at))
        )

    def instance_values(self, expr: cst.BaseExpression, at: cst.CSTNode) -> list[cst.BaseExpression]:
        """What made the object `expr` holds: the class declared for it, else `held_values`."""
        declared = self.declared_instance(expr, at)
        return [declared] if declared is not None else self.held_values(expr, at)

    def receiver_class(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str:
        """The library class of the object `expr` holds: one this file constructs (`constructed_class`),
        or one a framework's base class sets on `self` (`self.accelerator` of a Hugging Face Trainer)."""
        made = self.constructed_class(expr, at)
        if made or type(expr) is not cst.Attribute or type(expr.value) is not cst.Name or expr.value.value != "self":
            return made
        scope = self.model.scope_of(at)
        cls = self.model.enclosing_class(scope) if type(scope) is cst.FunctionDef else None
        kind = self.model.frameworks.framework_of(cls) if cls is not None else None
        return FRAMEWORK_ATTRIBUTES.get(kind or "", {}).get(expr.attr.value, "")

    def constructed_class(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str:
        """The imported class (as resolved) that every value `expr` may hold at `at` was constructed
        from (`svi = SVI(model, guide, optim)`), also through the arguments that this file's calls
        pass to a parameter (`evaluate(svi, loader)`), or that made `self.<attr>` or the elements of a
        container (`held_values`); "" when the file does not show one class."""
        model = self.model
        if not isinstance(expr, cst.Name):
            # `self.ort_model = ort_model` in `__init__`: what the constructor's callers pass
            made = {
                model.imports.resolve(v.func) or "" if type(v) is cst.Call else self.constructed_class(v, v) if type(v) is cst.Name else ""
                for v in self.instance_values(expr, at)
            }
            return made.pop() if len(made) == 1 else ""
        scope = model.scope_of(at)
        values: list[tuple[cst.BaseExpression, cst.CSTNode]] = []
        if isinstance(scope, cst.FunctionDef) and expr.value in model.params(scope):
            sites = model.call_sites().get(scope, ()) or self._constructions(scope)
            for site in sites:
                arg = self._argument_to(site, scope, expr.value)
                if not isinstance(arg, cst.Name) or arg.value == expr.value and model.scope_of(site) is scope:
                    return ""
                values += self._bound_values(arg.value, model.scope_of(site), site)
            if not sites:
                return ""
        else:
            values = self._bound_values(expr.value, scope, at)
        made = {model.imports.resolve(v.func) or "" if isinstance(v, cst.Call) else "" for v, _ in values}
        return made.pop() if len(made) == 1 else ""

    def _argument_to(self, site: cst.Call, func: cst.FunctionDef, param: str) -> cst.BaseExpression | None:
        """The argument of `site` that `func` receives as `param`; a construction (`Model(a, b)`)
        hands `__init__` its arguments after `self`, as a bound call does."""
        if func.name.value == "__init__" and type(site.func) is cst.Name:
            site = site.with_changes(func=cst.Attribute(value=cst.Name("self"), attr=cst.Name("__init__")))
        return self.model.summaries.argument_for(site, func, param)

    def _constructions(self, init: cst.FunctionDef) -> list[cst.Call]:
        """The calls of this file that construct the class whose `__init__` is `init` (`Model(a, b)`)."""
        cls = self.model.enclosing_class(init) if init.name.value == "__init__" else None
        if cls is None:
            return []
        return [
            c for c in self.model.tree.by_type.get(cst.Call, ()) if type(c.func) is cst.Name and c.func.value == cls.name.value
        ]

    def _bound_values(self, name: str, scope: "Scope", at: cst.CSTNode) -> list[tuple[cst.BaseExpression, cst.CSTNode]]:
        bindings = self.reaching_bindings(scope, name, at) or self.model.bindings(self.model.module, name)
        return [(b.value, b.node) for b in bindings if b.value is not None] if all(b.value is not None for b in bindings) else []

    def _name_history(self, name: str, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        # keyed by where the name is read, so that `s = s * 2` reads the `s` bound before it; and visited
        # once per question, as `_device` does: the answer is an "any" over what the bindings read, so a
        # name seen before (on this path, round a loop's back edge, or on another path, which found
        # nothing there) adds nothing; per path, a loop whose bindings read each other took exponential
        # time, and its file's analyses ran out of their CPU budget with their findings
        key = (id(scope), name, id(at))
        if key in guard:
            return False
        guard.add(key)
        if self._checked_for_a_number(name, at):
            return False  # `if isinstance(v, (int, float)): out[k] = v`: no tensor here
        bindings = self.reaching_bindings(scope, name, at)
        guarded = self._tensor_guarded_rebindings(bindings, name, at)
        for binding in bindings:
            if binding.value is None:
                continue
            if self.model.grad_state(binding.node) is Grad.OFF and not self._enables_grad(binding.value):
                continue
            if any(self.model.tree.order[id(binding.node)] < self.model.tree.order[id(block)] for block in guarded):
                continue  # reaches `at` only where a tensor check found no tensor: nothing with history
            if self.made_where_no_tensor(binding, name):
                continue  # `elif ...: v = v.sum()` after `if isinstance(v, Variable):`: `v` is no tensor there
            value, element = unpacked(binding)
            if element is not None and type(value) is cst.Name and self._handed_element_is_data(value.value, scope, element):
                continue  # `y_pred, y = output` in ignite's `update`: the targets carry no graph
            if element is not None and isinstance(value, cst.Name):
                # `a, b, n, s = result` after `result = step(...)`: element `n` of what `step` returns
                made = [b.value for b in self.reaching_bindings(scope, value.value, binding.node)]
                if made and all(isinstance(m, cst.Call) for m in made):
                    if any(self._call_history(m, scope, binding.node, guard, element) for m in made):  # type: ignore[arg-type]
                        return True
                    continue
            if element is not None and isinstance(value, cst.Call):
                if self._call_history(value, scope, binding.node, guard, element):
                    return True
            elif self._history(value, scope, binding.node, guard):
                return True
        if len(bindings) == 1 and type(bindings[0].node) is cst.CompFor and _in_comprehension_of(self.model.tree, bindings[0].node, at):
            return False  # a comprehension's own variable: what it iterates decides, nothing the function binds
        if not bindings and type(scope) is cst.FunctionDef and self._handed_history(name, scope):
            return True  # ignite's `Metric.update(output)`: the framework hands it values with history
        if not bindings and name not in self.model.params(scope) and scope is not self.model.module:
            module = self.model.module
            for binding in self.model.bindings(module, name):
                if binding.value is not None and self._history(binding.value, module, binding.node, guard):
                    return True
        if bindings and any(self._history(v, scope, s, guard) for s, v in self.entry_stores(name, scope, at, guard)):
            return True  # `metrics["nll"] = nll.mean()`: the mapping holds what its entries were set to
        if (self._made_leaf_before(name, scope, at) or self._iterated_parameters(bindings)) and self.model.grad_state(at) is not Grad.OFF:
            return True  # `x.requires_grad_()`, a parameter: read as an operand, what is computed from it records a graph
        return self._backwarded_value(name, scope, at)

    def entry_stores(
        self, name: str, scope: "Scope", at: cst.CSTNode, guard: set | None = None
    ) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
        """The stores into entries of the local container `name` (`name[key] = value`, `name[key] += value`)
        in `scope` before `at`, with grad on, as (statement, value); none of those that a later loop over
        its own entries rebinds without history (`for k, v in name.items(): name[k] = v.item()`)."""
        stores = self._entry_store_index.get((id(scope), name))
        if not stores:
            return []
        tree = self.model.tree
        position = tree.order[id(at)]
        # only those after a binding that reaches `at` (`stats = {}` again starts an empty mapping)
        bound = [tree.order[id(b.node)] for b in self.reaching_bindings(scope, name, at)]
        first = min(bound, default=-1)
        before = [
            (s, v, loop)
            for s, v, loop in stores
            if first < tree.order[id(s)] < position and not tree.contains(s, at)
        ]
        cleaned = [
            tree.order[id(loop)]
            for s, v, loop in before
            # (the guard of the question that asked: `x[i] = x[i - 1] + d` reads the mapping it fills)
            if loop is not None and not tree.contains(loop, at) and not self._history(v, scope, s, set() if guard is None else set(guard))
        ]
        start = max(cleaned, default=-1)
        return [
            (s, v)
            for s, v, loop in before
            if tree.order[id(s)] > start and loop is None and self.model.grad_state(s) is not Grad.OFF
        ]

    def _collected(
        self, name: str, scope: "Scope", at: cst.CSTNode, bindings: list
    ) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
        """What the local container `name`, bound to an empty display that reaches `at`, collected before
        `at` in `scope` with grad on (`outs.append(out)`, `outs.extend(parts)`), as (statement, value)."""
        if not all(type(b.value) in (cst.List, cst.Dict, cst.Set) and not b.value.elements for b in bindings if b.value is not None):
            return []
        stores = self._collection_index.get((id(scope), name))
        if not stores:
            return []
        order = self.model.tree.order
        first = min(order[id(b.node)] for b in bindings)
        return [
            (s, v)
            for s, v in stores
            if first < order[id(s)] < order[id(at)] and self.model.grad_state(s) is not Grad.OFF
        ]

    @cached_property
    def _collection_index(self) -> dict[tuple[int, str], list[tuple[cst.CSTNode, cst.BaseExpression]]]:
        """(scope, container name) -> the statements that add a value to it (`name.append(value)`, the
        methods of CONTAINER_STORES, at their argument's position), with the value."""
        index: dict[tuple[int, str], list[tuple[cst.CSTNode, cst.BaseExpression]]] = {}
        for statement in self.model.tree.by_type.get(cst.Expr, ()):
            call = statement.value
            if type(call) is not cst.Call or type(call.func) is not cst.Attribute or type(call.func.value) is not cst.Name:
                continue
            position = CONTAINER_STORES.get(call.func.attr.value)
            positional = [a for a in call.args if a.keyword is None and not a.star]
            if position is None or position >= len(positional):
                continue
            scope = self.model.scope_of(statement)
            index.setdefault((id(scope), call.func.value.value), []).append((statement, positional[position].value))
        return index

    def history_entries(self, expr: cst.BaseExpression, at: cst.CSTNode) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
        """Where the container `expr` (a name) gets its autograd history from the values set into its
        entries alone (`metrics["nll"] = nll.mean()`), here or in the function of this file that
        returns it (`loss, metrics = self.get_batch_metrics(batch)`): those stores, as (statement,
        value); [] where a value it is bound to carries history itself."""
        if type(expr) is not cst.Name:
            return []
        return self._history_entries(expr.value, self.model.scope_of(at), at, 0)

    def _history_entries(self, name: str, scope: "Scope", at: cst.CSTNode, depth: int) -> list[tuple[cst.CSTNode, cst.BaseExpression]]:
        found = [(s, v) for s, v in self.entry_stores(name, scope, at) if self._history(v, scope, s, set())]
        for binding in self.reaching_bindings(scope, name, at):
            if binding.value is None:
                return []
            value, element = unpacked(binding)
            callees = self.model.local_callees(value) if type(value) is cst.Call and depth < 3 else []
            inner = []
            for callee in callees:
                returns = self.model.summaries.returns(callee)
                returned = returns.element(element) if returns is not None and element is not None else returns
                node = returned.notes.get("at") if returned is not None else None
                ret = next((a for a in self.model.tree.ancestors(node) if type(a) is cst.Return), None) if node else None
                if type(node) is cst.Name and ret is not None:
                    inner += self._history_entries(node.value, callee, ret, depth + 1)
                elif type(node) is cst.Call and ret is not None:
                    # `return loss, flatten_dict(stats)`: the entries of the mapping it passes through
                    for arg in self._passed_through(node):
                        if type(arg) is cst.Name:
                            inner += self._history_entries(arg.value, callee, ret, depth + 1)
            shown = self._display_entries(value, scope, binding.node) if depth and element is None else None
            if inner:
                found += inner
            elif shown is not None:
                # in a callee: `stats = dict(loss=dict(policy=pg_loss, ...), ...)`, the values that bring the history
                found += [(v, v) for v in shown]
            elif element is not None and type(value) is cst.Call:
                if self._call_history(value, scope, binding.node, set(), element):
                    return []
            elif self._history(value, scope, binding.node, set()):
                return []
        return found

    def _passed_through(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` whose history the function it calls (of this file or another file of
        the project) returns, where it returns none of its own."""
        passed = self._passed_by_project_function(call)
        if passed is not None:
            return passed
        found = []
        for callee in self.model.local_callees(call):
            returns = self.model.summaries.returns(callee)
            if returns is not None and returns.history == NO:
                found += [a for p in returns.passes if (a := self.model.summaries.argument_for(call, callee, p)) is not None]
        return found

    def _display_entries(self, value: cst.BaseExpression, scope: "Scope", at: cst.CSTNode) -> list[cst.BaseExpression] | None:
        """The values with history of a mapping display (`{"loss": loss}`, `dict(loss=loss)`), also of the
        displays nested in it; None where `value` is no such display."""
        if type(value) is cst.Dict:
            items = [e.value for e in value.elements if type(e) is cst.DictElement]
            if len(items) != len(value.elements):
                return None  # `{**other, ...}`: what `other` holds is not shown here
        elif (
            type(value) is cst.Call
            and type(value.func) is cst.Name
            and value.func.value == "dict"
            and not self.model.bindings(self.model.module, "dict")
            and all(a.keyword is not None for a in value.args)
        ):
            items = [a.value for a in value.args]
        else:
            return None
        found = []
        for item in items:
            inner = self._display_entries(item, scope, at)
            if inner is not None:
                found += inner
            elif self._history(item, scope, at, set()) or self._reads_parameters(item, scope):
                found.append(item)
        return found

    def _reads_parameters(self, expr: cst.BaseExpression, scope: "Scope") -> bool:
        """Does `expr` read, with its history, what a parameter of the function `scope` was handed (the
        history its callers' arguments bring in)?"""
        if type(scope) is not cst.FunctionDef:
            return False
        return bool(self.model.summaries.params_read(expr, self.model.summaries.derived(scope)))

    @cached_property
    def _entry_store_index(self) -> dict[tuple[int, str], list[tuple[cst.CSTNode, cst.BaseExpression, cst.For | None]]]:
        """(scope, container name) -> its entry stores, each with the loop over the container's own
        entries that it rebinds (`for k, v in name.items(): name[k] = ...`), if it is in one."""
        index: dict[tuple[int, str], list[tuple[cst.CSTNode, cst.BaseExpression, cst.For | None]]] = {}
        tree = self.model.tree
        for kind in (cst.Assign, cst.AugAssign):
            for statement in tree.by_type.get(kind, ()):
                targets = [t.target for t in statement.targets] if kind is cst.Assign else [statement.target]
                for target in targets:
                    if type(target) is not cst.Subscript or type(target.value) is not cst.Name:
                        continue
                    name = target.value.value
                    scope = self.model.scope_of(statement)
                    index.setdefault((id(scope), name), []).append(
                        (statement, statement.value, _own_entries_loop(tree, statement, target))
                    )
        return index

    def handed_parameters(self, parts: list[cst.BaseExpression], at: cst.CSTNode) -> list[str]:
        """The parameters, handed values with history by the framework that calls the function
        around `at`, that `parts` are computed from (for the message: what the finding assumes)."""
        scope = self.model.scope_of(at)
        if type(scope) is not cst.FunctionDef:
            return []
        names = self.dependencies({n for p in parts for n in names_in(p)}, scope)
        return sorted(n for n in names if self._handed_history(n, scope) and not self.model.bindings(scope, n))

    def _enables_grad(self, value: cst.BaseExpression) -> bool:
        """Is `value` the result of a function of this file that switches grad on for its body
        (`@torch.enable_grad()`): it has history even where its caller runs without grad."""
        return type(value) is cst.Call and any(
            self.model.grad.declared_entry(f) is Grad.ON for f in self.model.local_callees(value)
        )

    def _handed_history(self, name: str, func: cst.FunctionDef) -> bool:
        """Is `name` a parameter that the framework calling `func` hands values that may carry history
        (and not annotated with a type that is no tensor: ignite's `Frequency.update(output: int)`)?"""
        if name not in self.model.params(func):
            return False
        hook = self.model.frameworks.hook(func)
        if hook is None or name not in hook.history_params:
            return False
        param = next((p for p in (*func.params.params, *func.params.kwonly_params) if p.name.value == name), None)
        if param is not None and param.annotation is not None:
            return "Tensor" in code(param.annotation.annotation)
        return hook.tensors or self._used_as_tensor(name, func)

    def handed_by_callers(self, name: str, func: cst.FunctionDef) -> str | None:
        """Where a call of another file of the project hands the parameter `name` of `func` a value with
        autograd history on every training step (`trainer.py:115`: `self.meter.update(**outputs)` for
        `**kwargs`), the first such call; None where none does, or where `func` is a framework's hook
        (the framework's calls decide) or a nested function no other file names."""
        exported = self.model.exported_name(func)
        if exported is None or self.model.frameworks.hook(func) is not None:
            return None
        p = func.params
        positional = [q.name.value for q in (*p.posonly_params, *p.params)]
        if self.model.enclosing_class(func) is not None and positional:
            positional = positional[1:]  # `self`: a bound call's positions leave it out
        named = {*positional, *(q.name.value for q in p.kwonly_params)}
        handed = self.model.project.history_handed_elsewhere(exported)
        for key, caller in sorted(handed.items()):
            if key == name or (name in positional and key == str(positional.index(name))):
                return caller
            # `*args` takes the positions past the named ones, `**kwargs` the keywords no parameter names
            if type(p.star_arg) is cst.Param and p.star_arg.name.value == name:
                if key == "*" or (key.isdigit() and int(key) >= len(positional)):
                    return caller
            if type(p.star_kwarg) is cst.Param and p.star_kwarg.name.value == name:
                if key == "**" or not (key.isdigit() or key == "*" or key in named):
                    return caller
        return None

    def _used_as_tensor(self, name: str, func: cst.FunctionDef) -> bool:
        """Does `func` use `name`, or the names it is unpacked into, as a tensor (`y_pred.ndim`,
        `torch.abs(y - y_pred)`)? An unannotated parameter that is only added up may be a number."""
        tree = self.model.tree
        names = {name}
        for assign in tree.descendants(func, cst.Assign):
            if type(assign.value) is cst.Name and assign.value.value == name:
                names |= {n for t in assign.targets for n in target_names(t.target)}
        for node in tree.descendants(func, cst.Name):
            if node.value not in names:
                continue
            parent = tree.parent_of(node)
            if type(parent) is cst.Attribute and parent.value is node and parent.attr.value in TENSOR_API - _LIST_METHODS:
                return True
            for anc in tree.ancestors(node):
                if anc is func:
                    break
                if type(anc) is cst.Call and (self.model.imports.resolve(anc.func) or "").startswith("torch."):
                    return True
        return False

    def _handed_element_is_data(self, name: str, scope: "Scope", element: int) -> bool:
        """Is element `element` of the handed parameter `name` one the framework hands without history?"""
        if type(scope) is not cst.FunctionDef or self.model.bindings(scope, name) or not self._handed_history(name, scope):
            return False
        hook = self.model.frameworks.hook(scope)
        return hook is not None and hook.history_element is not None and element != hook.history_element

    def tensor_tested(self, test: cst.BaseExpression) -> str | None:
        """The name a tensor check tests (`isinstance(v, torch.Tensor)`, `torch.is_tensor(v)`)."""
        if type(test) is not cst.Call or not test.args or type(test.args[0].value) is not cst.Name:
            return None
        resolved = self.model.imports.resolve(test.func) or ""
        if resolved == "torch.is_tensor" and len(test.args) == 1:
            return test.args[0].value.value
        if resolved != "isinstance" or len(test.args) != 2:
            return None
        types = test.args[1].value
        options = [e.value for e in types.elements] if type(types) is cst.Tuple else [types]
        if options and all(
            (resolved := self.model.imports.resolve(o) or "").endswith("Tensor") or resolved in TENSOR_CLASSES for o in options
        ):
            return test.args[0].value.value
        return None

    def made_where_no_tensor(self, binding: "Binding", name: str) -> bool:
        """Is `binding` of `name` made from `name` alone in a branch that runs only where a tensor check
        of `name` failed (the `else` or an `elif` of `if isinstance(name, torch.Tensor):`)? What it
        computes there comes from no tensor."""
        value = binding.value
        if value is None or set(names_in(value)) != {name}:
            return False
        child: cst.CSTNode = binding.node
        for anc in self.model.tree.ancestors(binding.node):
            if type(anc) in (cst.FunctionDef, cst.Module):
                return False
            if type(anc) is cst.If and child is anc.orelse and self.tensor_tested(anc.test) == name:
                return True
            child = anc
        return False

    def past_failed_tensor_check(self, binding: "Binding", name: str, at: cst.CSTNode) -> bool:
        """Does `binding` of `name` reach `at` only where a tensor check of `name` failed: made before an
        `if isinstance(name, torch.Tensor):` with no `else`, whose body rebinds `name` (`v = v.item()`),
        and that runs before `at` in a block around it? Where the check passed, the rebinding reaches
        `at` instead."""
        tree = self.model.tree
        child = at
        for anc in tree.ancestors(at):
            if type(anc) in (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Module):
                return False
            if type(anc) is cst.IndentedBlock:
                for statement in anc.body[: anc.body.index(child)]:
                    if (
                        type(statement) is cst.If
                        and statement.orelse is None
                        and self.tensor_tested(statement.test) == name
                        and _rebinds(statement.body, name)
                        and tree.order[id(binding.node)] < tree.order[id(statement)]
                        and not tree.contains(statement, binding.node)
                    ):
                        return True
            child = anc
        return False

    def _checked_for_a_number(self, name: str, at: cst.CSTNode) -> bool:
        """Is `at` in the body of `if isinstance(name, (int, float, ...))`? There `name` holds a
        Python number (or string), not a tensor."""
        child = at
        for anc in self.model.tree.ancestors(at):
            if type(anc) in (cst.FunctionDef, cst.Module):
                return False
            if type(anc) is cst.If and child is anc.body and self._number_tested(anc.test) == name:
                return True
            child = anc
        return False

    def number_on_some_path(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does the function test `expr`, or a name that a binding of it reaching `at` takes its
        value from, for a Python number before `at` (`if isinstance(v, float): ...`, then `total += v`)?
        The code then means it to be a number on some path, where a tensor method on it would raise."""
        if type(expr) is not cst.Name:
            return False
        tree = self.model.tree
        scope = self.model.scope_of(at)
        bindings = self.reaching_bindings(scope, expr.value, at)
        names = {expr.value} | {b.value.value for b in bindings if type(b.value) is cst.Name}
        return any(
            self._number_tested(check.test) in names and tree.order[id(check)] < tree.order[id(at)]
            for check in tree.descendants(scope, cst.If)
            if self.model.scope_of(check) is scope
        )

    def _number_tested(self, test: cst.BaseExpression) -> str | None:
        """The name `isinstance(name, int)` (or a tuple of number and string types) tests."""
        if type(test) is not cst.Call or len(test.args) != 2 or type(test.args[0].value) is not cst.Name:
            return None
        if (self.model.imports.resolve(test.func) or "") != "isinstance":
            return None
        types = test.args[1].value
        options = [e.value for e in types.elements] if type(types) is cst.Tuple else [types]
        numbers = ("int", "float", "bool", "complex", "str", "numbers.Number", "numbers.Real", "numbers.Integral")
        if options and all((self.model.imports.resolve(o) or "") in numbers for o in options):
            return test.args[0].value.value
        return None

    def _tensor_guarded_rebindings(self, bindings: list["Binding"], name: str, at: cst.CSTNode) -> list[cst.If]:
        """`if isinstance(name, torch.Tensor): name = name.detach()` before `at` (and not around it):
        the checks after which a value bound before them reaches `at` only if it is no tensor."""
        tree = self.model.tree
        found = []
        for binding in bindings:
            block = tree.parent_of(tree.statement_of(binding.node))
            block = tree.parent_of(block) if isinstance(block, cst.SimpleStatementLine) else block
            check = tree.parent_of(block) if isinstance(block, cst.IndentedBlock) else None
            if (
                isinstance(check, cst.If)
                and check.body is block
                and self.tensor_tested(check.test) == name
                and tree.order[id(check)] < tree.order[id(at)]
                and not tree.contains(check, at)
            ):
                found.append(check)
        return found

    def _backwarded_value(self, name: str, scope: "Scope", at: cst.CSTNode) -> bool:
        """Was the value that `name` holds at `at` differentiated (`name.backward()`)?

        Only the same value counts: a `loss` backwarded in the training loop says
        nothing about the `loss` an evaluation loop computes from outputs made under
        `no_grad`, so a backward call counts only when one of the bindings reaching
        it also reaches `at` (or when `name` has no binding here: a parameter)."""
        if self._finding_backwards:
            return False
        sites = self._backward_sites(scope).get(name)
        if not sites:
            return False
        reaching = {id(b.node) for b in self.reaching_bindings(scope, name, at)}
        if not reaching:
            return True
        return any(id(b.node) in reaching for site in sites for b in self.reaching_bindings(scope, name, site))

    def _backward_sites(self, scope: "Scope") -> dict[str, list[cst.Call]]:
        """name -> the backward calls in `scope` that differentiate it."""
        if id(scope) not in self._backwarded:
            sites: dict[str, list[cst.Call]] = {}
            for call, exprs in self.backward_calls(scope):
                for expr in exprs:
                    for name in self._differentiated_values(expr):
                        sites.setdefault(name, []).append(call)
            self._backwarded[id(scope)] = sites
        return self._backwarded[id(scope)]

    def _differentiated_values(self, expr: cst.BaseExpression) -> list[str]:
        """Names whose own values `backward(expr)` differentiates, so that they carry history: the loss,
        what it is computed from (`differentiated_operands`), and a container one of whose entries is
        differentiated (`losses["total"]`, `out.loss`)."""
        if type(expr) is cst.Name:
            return [expr.value]
        if type(expr) in (cst.Attribute, cst.Subscript):
            return self._differentiated_values(expr.value)
        return [n for part in self.differentiated_operands(expr) for n in self._differentiated_values(part)]

    def differentiated_operands(
        self, expr: cst.BaseExpression, unknown_calls: bool = True
    ) -> list[cst.BaseExpression]:
        """The operands whose own values a backward of `expr` differentiates: both sides of arithmetic
        (only the dividend of a division), a tensor method's receiver (and an arithmetic method's
        operands: `a.add(b)`), the elements of a list or tuple, and the prediction a loss function is
        handed first (`F.mse_loss(pred, y)`); not its target, nor a model's input (`model(x).mean()`
        differentiates the output, not `x`). With `unknown_calls`, a call of a callable that is no model
        counts as a loss function (`criterion(pred, y)`, `scaler.scale(loss)`, `sum(losses)`): a guess
        the in-function history question makes, not a summary other files rely on (`energy_fn(pos)`
        need not differentiate `pos`)."""
        kind = type(expr)
        if kind is cst.BinaryOperation:
            if type(expr.operator) in (cst.Divide, cst.FloorDivide):
                return [expr.left]
            return [expr.left, expr.right]
        if kind is cst.UnaryOperation:
            return [expr.expression]
        if kind in (cst.List, cst.Tuple):
            return [e.value for e in expr.elements]
        if kind is not cst.Call:
            return []
        func = expr.func
        if type(func) is cst.Attribute and func.attr.value == GRAD_LEAF_METHOD:
            return [func.value]  # `loss.requires_grad_(True)` sets the flag in place and returns `loss` itself
        if type(func) is cst.Attribute and _tensor_method(func.attr.value):
            if func.attr.value in _ARITHMETIC_METHODS:
                return [func.value, *(a.value for a in expr.args)]
            return [func.value]
        positional = [a for a in expr.args if a.keyword is None and not a.star]
        if not positional:
            return []
        if _F_LOSSES.match(self.model.imports.resolve(func) or ""):
            return [positional[0].value]
        if not unknown_calls or self.is_module_call(expr) and not named_like_loss(callee_name(expr) or ""):
            return []  # a model's output: what it is handed is its input, no value of the graph
        return [positional[0].value]

    def reaching_bindings(self, scope: "Scope", name: str, at: cst.CSTNode) -> list["Binding"]:
        """Bindings of `name` that may reach `at`: the latest one before it whose
        block (or the block around its `with`) encloses `at` (so it surely ran), plus any in between, plus, inside
        a loop, the bindings that the previous iteration left (at or after `at`).
        With none before `at`, every binding in the scope."""
        key = (id(scope), name, id(at))
        known = self._reaching.get(key)
        if known is None:
            known = self._reaching[key] = tuple(self._reaching_bindings(scope, name, at))
        return list(known)  # (a list of its own: a caller may extend it)

    def _reaching_bindings(self, scope: "Scope", name: str, at: cst.CSTNode) -> list["Binding"]:
        bindings = self.model.bindings(scope, name)
        tree = self.model.tree
        # in a comprehension that binds the name, its `for` does, whatever the function binds
        inner = [b for b in bindings if type(b.node) is cst.CompFor and _in_comprehension_of(tree, b.node, at)]
        if inner:
            return inner[-1:]
        position = tree.order[id(at)]
        # A loop's target is bound before each run of its body: in the body it is the latest binding
        # (the target of an earlier loop of the same name does not reach it).
        before = [
            b
            for b in bindings
            if tree.order[id(b.node)] < position
            and (not tree.contains(b.node, at) or type(b.node) is cst.For and tree.contains(b.node.body, at))
        ]
        before.sort(key=lambda b: tree.order[id(b.node)])  # the table lists bindings by kind of statement
        if not before:
            return bindings
        reaching = []
        for binding in reversed(before):
            reaching.append(binding)
            block = tree.parent_of(tree.statement_of(binding.node))
            if type(block) is cst.SimpleStatementLine:
                block = tree.parent_of(block)
            while block is not None and type(tree.parent_of(block)) is cst.With:
                block = tree.parent_of(tree.parent_of(block))  # a `with` body always runs
            if block is not None and tree.contains(block, at):
                break
            rebinding = self._rebinding_branches(binding, before, at)
            if rebinding is not None:
                # `if ...: s = a` / `else: s = b` before `at`: one of them surely ran, nothing earlier reaches
                reaching.extend(b for b in before if tree.contains(rebinding, b.node) and b not in reaching)
                break
        dominating = reaching[-1]
        for loop in self.model.enclosing_loops(at):
            if tree.contains(loop, dominating.node):
                break  # rebound earlier in this iteration: nothing comes round the back edge
            reaching.extend(b for b in bindings if tree.contains(loop, b.node) and b not in before)
        return reaching

    def _rebinding_branches(self, binding: "Binding", before: list["Binding"], at: cst.CSTNode) -> cst.If | None:
        """The `if` statement around `binding` that rebinds its name on every branch (an `else` included,
        in nested `if`s too) and lies in a block that encloses `at`: after it, no earlier binding reaches."""
        tree = self.model.tree
        bound = {id(tree.statement_of(b.node)) for b in before if type(b.node) is not cst.For}
        current = tree.statement_of(binding.node)
        while True:
            parent = tree.parent_of(current)
            if isinstance(parent, (cst.SimpleStatementLine, cst.IndentedBlock, cst.SimpleStatementSuite, cst.Else, cst.With)):
                current = parent
                continue
            if not isinstance(parent, cst.If):
                return None
            top = parent
            while isinstance(tree.parent_of(top), cst.If) and tree.parent_of(top).orelse is top:  # type: ignore[union-attr]
                top = tree.parent_of(top)  # type: ignore[assignment]
            if tree.contains(top, at) or not self._branches_rebind(top, bound):
                return None
            outer = tree.parent_of(top)
            while outer is not None and type(tree.parent_of(outer)) is cst.With:
                outer = tree.parent_of(tree.parent_of(outer))  # a `with` body always runs: the block around it
            if outer is not None and tree.contains(outer, at):
                return top
            current = top

    def _branches_rebind(self, test: cst.If, bound: set[int]) -> bool:
        """Does every branch of `test` (which needs an `else`) hold one of the statements `bound`, directly,
        in a `with` body or in an inner `if` that does on all its branches?"""
        branch: cst.If | cst.Else | None = test
        while isinstance(branch, cst.If):
            if not self._block_rebinds(branch.body, bound):
                return False
            branch = branch.orelse
        return branch is not None and self._block_rebinds(branch.body, bound)

    def _block_rebinds(self, block: cst.BaseSuite, bound: set[int]) -> bool:
        for statement in block.body:
            smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else [statement]
            if any(id(small) in bound for small in smalls):
                return True
            if isinstance(statement, cst.With) and self._block_rebinds(statement.body, bound):
                return True
            if isinstance(statement, cst.If) and self._branches_rebind(statement, bound):
                return True
        return False

    def run_callables(self, call: cst.Call) -> list[cst.FunctionDef]:
        """The functions of this file that `call` runs and whose result it returns, by the
        library table: `optimizer.step(closure)` runs `closure`."""
        where = RUNS_ITS_ARGUMENT.get(method_name(call) or "")
        arg = call_arg(call, *where) if where is not None else None
        if arg is None or not isinstance(arg.value, cst.Name):
            return []
        return self.model.functions_named(arg.value, call)

    def handed_functions(self, call: cst.Call) -> list[cst.FunctionDef]:
        """`fun(batch)` where `fun` is a parameter that every call of this file hands a function of this
        file (`map_batches(loader, fun=self.forward_batch)`, `apply(predict_one, data)`): those functions;
        [] where a call hands it anything else, or one is out of sight."""
        func = call.func
        if type(func) is not cst.Name:
            return []
        found: list[cst.FunctionDef] = []
        for value in self.model.handed.parameter_values(func):  # type: ignore[attr-defined]
            named = self.model.functions_named(value, value)
            if not named:
                return []
            found += named
        return found

    def callee_value(
        self,
        call: cst.Call,
        func: cst.FunctionDef,
        element: int | None = None,
        arg_history: "Callable[[cst.BaseExpression], bool] | None" = None,
    ) -> Value:
        """What `call` of `func`, a function of this file, returns (by its summary); a call
        back into a function being summarized (recursion) returns nothing with history."""
        if arg_history is None:
            arg_history = lambda arg: self.carries_history(arg, call)  # noqa: E731
        value = self.model.summaries.call_value(call, func, element, arg_history)
        return value if value is not None else Value(history=NO)

    # -- is it a tensor (so that `.detach()` applies)? ----------------------------
    def stored_kind(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str:
        """`value_kind`, and where it cannot tell, what the summary of the function that the name was
        unpacked from says, in this file or another of the project (`log, out = self.step(x)`: `step`
        returns a dict first; `losses = criterion(out, y)`: the criterion's `forward` returns a dict).
        What a call unpacks with `**` (`meter.update(**losses)`) is a mapping, whatever made it."""
        parent = self.model.tree.parent_of(expr)
        if type(parent) is cst.Arg and parent.star == "**" and parent.value is expr:
            return "mapping"
        kind = self.value_kind(expr, at)
        if kind != "maybe" or not isinstance(expr, cst.Name):
            return kind
        found = set()
        for binding in self.reaching_bindings(self.model.scope_of(at), expr.value, at):
            value, index = unpacked(binding)
            if not isinstance(value, cst.Call):
                continue
            returns = [self.model.summaries.returns(f) for f in self.model.local_callees(value)]
            elsewhere = self.project_callee(value, value)
            returns += [ProjectFacts.returned(elsewhere)] if elsewhere is not None else []
            found |= {(r if index is None else r.element(index)).kind for r in returns if r is not None}
        return found.pop() if len(found) == 1 and found <= {"mapping", "sequence"} else kind

    def value_kind(self, expr: cst.BaseExpression, at: cst.CSTNode, guard: frozenset = frozenset()) -> str:
        """"tensor" when `expr` is surely a tensor, "container" for a dict, list or
        tuple, "maybe" otherwise (a model's output may be a tensor, a tuple or a
        ModelOutput; an item of a mapping may be a number). A fix that calls a tensor
        method on a value is offered only where this says "tensor"."""
        if type(expr) is cst.BinaryOperation:
            operands = (expr.left, expr.right)
            if type(expr.operator) is cst.Multiply and any(type(e) in (cst.List, cst.ListComp) for e in operands):
                return "container"  # `[None] * n`: a list repeated is a list
            # arithmetic makes a tensor only of a tensor (`step_batch_size * world_size` is an int)
            return "tensor" if any(self.value_kind(e, at, guard) == "tensor" for e in operands) else "maybe"
        if type(expr) is cst.UnaryOperation:
            return "tensor" if self.value_kind(expr.expression, at, guard) == "tensor" else "maybe"
        if type(expr) is cst.IfExp:
            both = (expr.body, expr.orelse)
            return "tensor" if all(self.value_kind(e, at, guard) == "tensor" for e in both) else "maybe"
        if type(expr) in (cst.Dict, cst.List, cst.Tuple, cst.DictComp, cst.ListComp, cst.Set):
            return "container"
        if type(expr) is cst.Attribute:
            return "tensor" if expr.attr.value in _TENSOR_ATTRIBUTES else "maybe"
        if type(expr) is cst.Call:
            if self._is_module_factory(expr):
                return "maybe"  # a module made and placed (`Resample(a, b).to(device)`): no tensor to detach
            method = method_name(expr)
            resolved = self.model.imports.resolve(expr.func) or ""
            # a loss of torch, or a criterion module called, is a tensor; a method only named like
            # a loss may return a float (pyro's `svi.evaluate_loss(x)`), where `.detach()` would raise
            criterion = self.is_loss_call(expr) and self.is_module_call(expr)
            if _F_LOSSES.match(resolved) or criterion or (method in _TENSOR_METHODS and not expr.args and method not in ("max", "min")):
                return "tensor"
            if method in _TENSOR_METHODS and method not in ("max", "min"):
                return "tensor"
            if method in TENSOR_METHODS and TENSOR_METHODS[method].kind == "tensor":
                return "tensor"  # `out.detach()`, `x.cpu()`: the library table's tensor results
            if resolved.startswith("torch.") and resolved.rsplit(".", 1)[-1] in _TORCH_TENSOR_FUNCTIONS:
                return "tensor"
            if self._runs_tensor_module(expr, at):
                return "tensor"
            if resolved in _CONTAINER_CONSTRUCTORS:
                return "container"  # `metrics = dict()`
            return "maybe"
        if type(expr) is cst.Name:
            used_as = self._used_as(expr.value, self.model.scope_of(at))
            if used_as is not None:
                return used_as  # `output["loss"].backward()`: a mapping; `out.backward()`: a tensor
        if type(expr) is cst.Name and expr.value not in guard:
            scope = self.model.scope_of(at)
            kinds = {
                self.value_kind(b.value, b.node, guard | {expr.value})
                for b in self.reaching_bindings(scope, expr.value, at)
                if b.value is not None
            }
            if kinds == {"tensor"}:
                return "tensor"  # what it is bound to decides, whatever it is called
            if "container" in kinds:
                return "container"
        if type(expr) is cst.Name and _CONTAINER_NAME.search(expr.value):
            return "container"  # `loss_dict`, `outputs`, `metrics`: named for what they hold (nothing here says)
        return "maybe"

    def _runs_tensor_module(self, call: cst.Call, at: cst.CSTNode) -> bool:
        """`self.fc(x)` where `self.fc = nn.Linear(...)`, `net(x)` where `net = nn.Sequential(...,
        nn.Linear(...)).to(device)`: a module of the library table whose forward returns one tensor."""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in MODULE_RUN_METHODS:
            func = func.value
        if isinstance(func, cst.Call):
            return self._makes_tensor_module(func)  # `nn.ReLU()(x)`
        values = self.held_values(func, at)
        return bool(values) and all(self._makes_tensor_module(v) for v in values)

    def _makes_tensor_module(self, value: cst.BaseExpression, depth: int = 0) -> bool:
        """Does `value` construct (and maybe place) a module of `TENSOR_MODULES`, or a `Sequential`
        whose last module is one?"""
        while (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value in MODULE_SELF_RETURNING
        ):
            value = value.func.value
        if not isinstance(value, cst.Call) or depth > 4:
            return False
        name = self.model.imports.resolve(value.func) or ""
        if name in SEQUENTIAL_MODULES:
            layers = [a for a in value.args if a.keyword is None]
            return bool(layers) and not layers[-1].star and self._makes_tensor_module(layers[-1].value, depth + 1)
        return name in TENSOR_MODULES

    def tensor_buffer(self, container: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is `container` a name that holds a tensor wherever it reaches `at` (`obs = torch.zeros(n, d)`)?
        `container[i] = x` then copies `x` into the tensor's fixed storage: it keeps no reference to
        `x` and grows nothing, however many steps write into it."""
        if type(container) is cst.Attribute and type(container.value) is cst.Name and container.value.value == "self":
            # `self.moving_avg[idx] = r` where every value the class gives `self.moving_avg` (but None,
            # which a subscript store would not get past) is a tensor (`torch.zeros(n)`)
            values = [
                v for v in self.self_attribute_values(container.attr.value, at)
                if not (type(v) is cst.Name and v.value == "None")
            ]
            return bool(values) and all(self.value_kind(v, v) == "tensor" for v in values)
        return type(container) is cst.Name and self.value_kind(container, at) == "tensor"

    def items_read_as_text(self, container: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does the scope of `at`, after it, read the items of `container` (a name) as only `str` is read
        (`[t.strip() for t in truths]`, `for ref, hyp in zip(refs, hyps): ref.split("\\n")`), or hand it
        to a function that does, of this file or of another file of the project (its facts' `text_items`)?
        Then what was collected there is text, whatever the value it came from looked like (a batch's
        `tgt_text`)."""
        if type(container) is not cst.Name:
            return False
        tree = self.model.tree
        scope = self.model.scope_of(at)
        after = tree.order[id(tree.statement_of(at))]
        if self._reads_items_as_text(scope, container.value, after):
            return True
        for call in tree.descendants(scope, cst.Call):
            if tree.order[id(call)] < after or self.model.scope_of(call) is not scope:
                continue
            handed = {id(a.value) for a in call.args if type(a.value) is cst.Name and a.value.value == container.value}
            if not handed:
                continue
            summaries, project = self.model.summaries, self.model.project
            for callee in self.model.local_callees(call):
                if any(id(summaries.argument_for(call, callee, p)) in handed for p in self.text_parameters(callee)):
                    return True
            facts = project.function(call)
            if facts and any(id(project.argument(facts, call, p)) in handed for p in facts.get("text_items", ())):
                return True
        return False

    def text_parameters(self, func: cst.FunctionDef) -> list[str]:
        """The parameters of `func` whose items it reads as only `str` is read (`items_read_as_text`)."""
        start = self.model.tree.order[id(func.body)]
        return [p for p in self.model.params(func) if p not in ("self", "cls") and self._reads_items_as_text(func, p, start)]

    def _reads_items_as_text(self, scope: "Scope", name: str, after: int) -> bool:
        tree = self.model.tree
        loops: list[tuple[cst.CSTNode, cst.BaseExpression, cst.BaseExpression]] = [
            (comp, comp.for_in.target, comp.for_in.iter)
            for kind in (cst.ListComp, cst.GeneratorExp, cst.SetComp, cst.DictComp)
            for comp in tree.descendants(scope, kind)
        ]
        loops += [(loop.body, loop.target, loop.iter) for loop in tree.descendants(scope, cst.For)]
        for body, target, iterated in loops:
            item = _item_of(name, target, iterated)
            if item is None or tree.order[id(iterated)] < after or self.model.scope_of(iterated) is not scope:
                continue
            for call in tree.descendants(body, cst.Call):
                func = call.func
                if type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == item:
                    if func.attr.value in TEXT_ONLY_METHODS:
                        return True
                    if func.attr.value in TEXT_WITH_STRING_ARGUMENT and call.args and type(call.args[0].value) is cst.SimpleString:
                        return True
        return False

    def _used_as(self, name: str, scope: "Scope") -> str | None:
        """What the uses of `name` in `scope` show it is: "mapping" when it is
        subscripted with a string key, "tensor" when a tensor-only method is
        called on it (`.backward()`, `.item()`, `.detach()`, `.to()`, `.cpu()`)."""
        tree = self.model.tree
        evidence = None
        for sub in tree.descendants(scope, cst.Subscript):
            if type(sub.value) is cst.Name and sub.value.value == name and len(sub.slice) == 1:
                key = sub.slice[0].slice
                if type(key) is cst.Index and type(key.value) in (cst.SimpleString, cst.FormattedString):
                    if not self._shadowed(sub, name, scope):
                        return "mapping"
        for call in tree.descendants(scope, cst.Call):
            func = call.func
            if (
                type(func) is cst.Attribute
                and type(func.value) is cst.Name
                and func.value.value == name
                and func.attr.value in _TENSOR_EVIDENCE
                # `engine.backward(loss)`: a backward handed a value it did not build (a loss) may be an
                # engine's; `out.backward(torch.ones_like(out))`, handed a gradient it builds, is a tensor's
                and not (
                    func.attr.value == "backward"
                    and call.args
                    and call.args[0].keyword is None
                    and type(call.args[0].value) in (cst.Name, cst.Attribute)
                )
                and not self._shadowed(call, name, scope)
            ):
                evidence = "tensor"
            elif (
                (self.model.imports.resolve(func) or "").startswith("torch.nn.functional.")
                and any(type(a.value) is cst.Name and a.value.value == name and a.keyword is None for a in call.args)
                and not self._shadowed(call, name, scope)
            ):
                evidence = "tensor"  # `F.cross_entropy(out, y)`: the functional API takes tensors
        return evidence

    def collected_tensors(self, container: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does the scope of `at` concatenate what `container` (a name) collects (`torch.cat(preds)`,
        `torch.stack(losses)`)? Then every element is a tensor: those functions take nothing else."""
        if type(container) is not cst.Name:
            return False
        scope = self.model.scope_of(at)
        for call in self.model.tree.descendants(scope, cst.Call):
            if (self.model.imports.resolve(call.func) or "") in CONCATENATIONS and call.args:
                arg = call.args[0].value
                if type(arg) is cst.Name and arg.value == container.value and not self._shadowed(call, arg.value, scope):
                    return True
        return False

    def _shadowed(self, node: cst.CSTNode, name: str, scope: "Scope") -> bool:
        """Is `name` at `node` another variable than `name` of `scope`: a parameter of a lambda or
        a nested function around it (`TransformObservation(envs, lambda obs: obs["rgb"])`)?"""
        for anc in self.model.tree.ancestors(node):
            if anc is scope:
                return False
            if type(anc) is cst.Lambda and name in {p.name.value for p in anc.params.params}:
                return True
            if type(anc) is cst.FunctionDef and (name in self.model.params(anc) or self.model.bindings(anc, name)):
                return True
        return False

    def retains_graph(self, region: cst.CSTNode) -> bool:
        """Does `region` call `backward(retain_graph=True)` (or any value but False)?"""
        for call, _ in self.backward_calls(region):
            kw = keyword_arg(call, "retain_graph")
            if kw is not None and not (isinstance(kw.value, cst.Name) and kw.value.value in ("False", "None")):
                return True
        return False

    # -- which tensors stay on the device? -------------------------------------
    def device_output(self, expr: cst.BaseExpression, at: cst.CSTNode | None = None) -> bool:
        """A per-batch, non-scalar tensor from a model or a batch moved to the device."""
        at = at if at is not None else expr
        return self._device(expr, self.model.scope_of(at), at, set())

    def _device(self, expr: cst.BaseExpression, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        if isinstance(expr, cst.Name):
            if self._checked_for_a_number(expr.value, at) or self._zero_dim(expr, at):
                return False  # a number, or one element per batch (a loss backwarded alone), not a batch's outputs
            if self._is_lightning_batch(expr.value, scope):
                return True  # Lightning moves the batch to the device before the step
            if type(scope) is cst.FunctionDef and self.model.frameworks.forward_hook_output(scope) == expr.value:
                if not self.model.bindings(scope, expr.value):
                    return True  # a forward hook is handed the module's output
            # keyed by where the name is read, so that `out = out.softmax(-1)` reads the `out` bound
            # before it; and visited once per question: the answer is an "any" over what the bindings
            # read, so a name seen before (on this path, round a loop's back edge, or on another path,
            # which found nothing there) adds nothing, and a chain of rebindings is read in linear time
            key = (id(scope), expr.value, id(at))
            if key in guard:
                return False
            guard.add(key)
            return any(
                (b.value is not None and self._bound_device(b, scope, guard))
                or (isinstance(b.node, cst.For) and self._batch_on_device(b.node, expr.value))
                for b in self.reaching_bindings(scope, expr.value, at)
            )
        if isinstance(expr, cst.Attribute):
            attr = expr.attr.value
            if attr in _NO_HISTORY_ATTRIBUTES or attr in _SCALAR_ATTRIBUTES:
                return False
            if isinstance(expr.value, cst.Name) and expr.value.value == "self":
                return False
            order = self.model.tree.order
            assigned = [  # `model.ss_prob = opt.ss_prob` before it: what the function stores there, not the object's device
                (node, value)
                for node, value in self._attribute_assignments.get((id(scope), code(expr)), ())
                if order[id(node)] < order.get(id(at), -1) and not self.model.tree.contains(node, at)
            ]
            if assigned:  # what the function stores there decides, whatever the attribute is called
                return any(self._device(value, scope, node, guard) for node, value in assigned)
            if _SCALAR_NAME.search(attr):
                return False  # nothing here defines it: an attribute of an object built elsewhere
            return self._device(expr.value, scope, at, guard)
        if isinstance(expr, cst.Subscript):
            name = _string_key(expr)
            if name in _SCALAR_ATTRIBUTES:
                return False  # a model output's loss (`out["loss"]`, as `out.loss`): one element
            shown = self._entry_scalar(expr.value, name, scope, at, set()) if name is not None else None
            if shown:
                return False  # what fills the entry is a scalar (`out.update({"acc1": acc1})`), whatever its key
            if shown is None and name is not None and _SCALAR_NAME.search(name) and not self.held_values(expr.value, at):
                return False  # nothing here defines the mapping (a batch a loss module filled elsewhere), as for attributes
            return self._device(expr.value, scope, at, guard)
        if isinstance(expr, cst.Call):
            return self._call_device(expr, scope, at, guard)
        if isinstance(expr, cst.BinaryOperation):
            return self._device(expr.left, scope, at, guard) or self._device(expr.right, scope, at, guard)
        if isinstance(expr, (cst.Tuple, cst.List)):
            return any(self._device(e.value, scope, at, guard) for e in expr.elements)
        if isinstance(expr, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self._device(e.value, scope, at, guard) for e in expr.elements)
        if isinstance(expr, cst.DictComp):
            return self._device(expr.value, scope, at, guard)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
            return self._device(expr.elt, scope, at, guard)
        return False

    def _bound_device(self, binding: "Binding", scope: "Scope", guard: set) -> bool:
        """Is what `binding` gives its name on the device? For `loss, metrics = step(batch)` with `step` a
        function of this file, the element of the name's position in the tuples `step` returns that
        many elements in (`return loss, metrics`; a `return loss, logits, metrics` beside it would not
        unpack into two names)."""
        value, index = unpacked(binding)
        if index is not None and type(value) is cst.Call and type(binding.node) is cst.Assign:
            callees = self.model.local_callees(value)
            arity = len(binding.node.targets[0].target.elements)  # type: ignore[attr-defined]
            if callees:
                return self._returns_device(callees, guard, (index, arity))
            elements = (self.project_callee(value, binding.node) or {}).get("returns_device")
            if elements:  # a function of another file: the elements its facts show on the device
                return -1 in elements or index in elements
        return self._device(binding.value, scope, binding.node, guard)  # type: ignore[arg-type]

    def _batch_on_device(self, loop: cst.For, name: str) -> bool:
        """`for xb, yb in dl: out = model(xb)`: the loader yields `xb` on the model's
        device (it is fed to the model as it is), so `yb` of the same batch is there too."""
        names = target_names(loop.target)
        if name not in names or self._moves_to_device(loop, set(names)):
            return False
        # `for batch in dl: model(*batch[:n])` feeds the loader's own value (or a slice of it)
        fed = set(names) if len(names) < 2 else set(names) - {name}
        scope = self.model.scope_of(loop)

        def fed_as_yielded(value: cst.BaseExpression, call: cst.Call) -> bool:
            if isinstance(value, cst.Subscript) and len(names) < 2:
                value = value.value
            return (
                isinstance(value, cst.Name)
                and value.value in fed
                # fed as the loader yields it, not after `xb = xb.to(device)`
                and all(b.node is loop for b in self.reaching_bindings(scope, value.value, call))
            )

        return any(
            self.is_module_call(call) and any(fed_as_yielded(a.value, call) for a in call.args)
            for call in self.model.tree.descendants(loop.body, cst.Call)
        )

    def _moves_to_device(self, loop: cst.For, names: set[str]) -> bool:
        """Does the body of `loop` move a value it binds to the device (`target = target.cuda()`,
        `x.to(device)`), or a part of one (`batch["x"].to(device)`, each value of the batch where the body
        iterates over it: `for k, v in batch.items(): batch[k] = v.to(device)`)? Then its loader yields
        the batch on the host: what it does not move stays there."""
        names = names | self._taken_out_of(loop, names)
        for call in self.model.tree.descendants(loop.body, cst.Call):
            receiver = call.func.value if type(call.func) is cst.Attribute else None
            if receiver is None or root_name(receiver) not in names:
                continue
            method = method_name(call)
            if method == "cuda":
                return True
            target = call_arg(call, 0, "device") if method == "to" else None
            if target is None or (type(target.value) is cst.SimpleString and "cpu" in target.value.value):
                continue
            if not self._keeps_device(target.value, call):
                return True
        return False

    def _taken_out_of(self, loop: cst.For, names: set[str]) -> set[str]:
        """The names the body of `loop` binds by iterating over one of `names` (`for k, v in batch.items()`,
        `for t in batch`): the batch's own keys and values."""
        taken: set[str] = set()
        for inner in (*self.model.tree.descendants(loop.body, cst.For), *self.model.tree.descendants(loop.body, cst.CompFor)):
            source = inner.iter
            if type(source) is cst.Call and method_name(source) in ("items", "values") and not source.args:
                source = source.func.value  # type: ignore[attr-defined]
            if root_name(source) in names:
                taken |= set(target_names(inner.target))
        return taken

    def _call_device(self, call: cst.Call, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        method = method_name(call)
        resolved = self.model.imports.resolve(call.func) or ""
        if method in _OFF_DEVICE_METHODS or method in _NOT_TENSOR_METHODS:
            return False
        if self._is_module_factory(call):
            return False  # a module made and placed (`Resample(a, b).to(device)`), not a tensor
        if method == "to":
            target = call_arg(call, 0, "device")
            if target is not None and isinstance(target.value, cst.SimpleString) and "cpu" in target.value.value:
                return False
            if target is None or self._keeps_device(target.value, call):
                # `.to(torch.float)` casts, `.to(output_device)` with `output_device=None` moves nothing
                return self._device(call.func.value, scope, at, guard)
            return True
        if method == "cuda":
            return True
        if method in _REDUCTIONS and not call.args:
            return False  # a scalar per batch
        if self.is_loss_call(call) or self._zero_dim(call, at):
            return False  # `ce(logits, y)` with `ce = nn.CrossEntropyLoss()`: one element per batch
        if resolved.startswith("torch."):
            last = resolved.rsplit(".", 1)[1]
            if last in _REDUCTIONS and call_arg(call, 1, "dim") is None:
                return False
            if _TORCH_NO_HISTORY.match(resolved) and last not in _COMPUTED_WITHOUT_HISTORY:
                return False
            return any(self._device(a.value, scope, at, guard) for a in call.args)
        if self.is_module_call(call):
            if self._scalar_returning_module(call, at):
                return False  # its `forward` returns scalars only (`{"mse": loss.item()}`, `err.abs().mean()`)
            if self.model.model_runs.parameter_free(call):  # type: ignore[attr-defined]
                return any(self._device(a.value, scope, at, guard) for a in call.args)  # where its inputs are
            return not self._module_moved_to_cpu(call) and not self._host_module_run(call, scope, at, guard)
        if (
            isinstance(call.func, cst.Attribute)
            and method in _PASSING_METHOD_NAMES  # first: the receiver's class is looked up only then
            and method in HISTORY_PASSING_METHODS.get(self.receiver_class(call.func.value, at), ())
        ):
            return bool(call.args) and self._passed_device(call.args[0].value, scope, at, guard)
        callees = self.model.local_callees(call)
        if callees:
            return self._returns_device(callees, guard)
        external = self.project_callee(call, at) or {}  # a function or method of another file of the project: its facts
        if external.get("returns_device") or external.get("returns_scalars"):
            return bool(external.get("returns_device"))
        if isinstance(call.func, cst.Attribute) and method not in ("item", "tolist"):
            return self._device(call.func.value, scope, at, guard)
        return False

    def device_returns(self, func: cst.FunctionDef) -> list[int]:
        """The elements of what `func` returns that are per-batch device tensors (a model's output, a batch moved
        there): [-1] for the whole value, else the indexes of the tuples (all of one length) it returns
        that some `return` puts one in; [] for none."""
        if self._placed_by_caller(func):
            return []  # `move_to_device(x, "cpu")`: where its result goes is the caller's to say
        returns = [r.value for r in self.model.tree.descendants(func.body, cst.Return) if self.model.scope_of(r) is func]
        tuples = [v for v in returns if type(v) is cst.Tuple and not any(type(e) is cst.StarredElement for e in v.elements)]
        if not tuples or len(tuples) != len(returns) or len({len(t.elements) for t in tuples}) != 1:
            return [-1] if self._returns_device([func], set()) else []
        return [
            i
            for i in range(len(tuples[0].elements))
            if any(self._device(t.elements[i].value, func, t, set()) for t in tuples)
        ]

    def _placed_by_caller(self, func: cst.FunctionDef) -> bool:
        """Does `func` move what it is handed to a device that a parameter names (`x.to(device)`, `device`
        a parameter of `func`)?"""
        params = set(self.model.params(func))
        for call in self.model.tree.descendants(func.body, cst.Call):
            target = call_arg(call, 0, "device") if method_name(call) == "to" else None
            if target is not None and type(target.value) is cst.Name and target.value.value in params:
                return True
        return False

    def _zero_dim(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is `expr` a 0-dim tensor by what the code shows of its sizes (`flow.sizes`: a loss backwarded
        alone, a reduced loss module or function, a full reduction)?"""
        found = self.model.sizes.tensor(expr, at)
        return found is not None and not found.dims

    def _scalar_returning_module(self, call: cst.Call, at: cst.CSTNode) -> bool:
        """`self.loss_module(out, y)` where every value the module's name holds is made by a class (of this
        file or another file of the project) whose `forward` returns scalars only (`returns_scalars`)."""
        if type(call.func) not in (cst.Name, cst.Attribute):
            return False
        made = [unplaced(v) for v in self.held_values(call.func, at)]
        if not made or any(type(m) is not cst.Call or type(m.func) is not cst.Name for m in made):
            return False
        classes = self.model.calls.classes
        for maker in made:
            cls = classes.get(maker.func.value)  # type: ignore[attr-defined]
            if cls is not None:
                forward = next((f for f in self.model.tree.descendants(cls.body, cst.FunctionDef) if f.name.value == "forward"), None)
                if forward is None or not self.returns_scalars(forward):
                    return False
            elif not (self.model.project.method(maker, "forward") or {}).get("returns_scalars"):  # type: ignore[arg-type]
                return False
        return True

    def returns_scalars(self, func: cst.FunctionDef) -> bool:
        """Does every `return` of `func` hand back scalars only: host numbers (`loss.item()`, `float(x)`,
        literals, arithmetic of them), host arrays (`.cpu()`, `.numpy()`), 0-dim or one-element tensors (a
        full reduction, `(p - t).abs().mean()`; a loss function's default reduction), what a function of the
        project returns where it returns only such values, or mappings and sequences of them
        (`{"mse": loss.item()}`)? Once per function; one met again while it is read (recursion) is not."""
        known = self._scalar_returns.get(id(func))
        if known is None:
            self._scalar_returns[id(func)] = False
            returns = [r for r in self.model.tree.descendants(func.body, cst.Return) if self.model.scope_of(r) is func]
            known = self._scalar_returns[id(func)] = bool(returns) and all(
                r.value is not None and self._scalar(r.value, func, r, set()) for r in returns
            )
        return known

    def _scalar(self, expr: cst.BaseExpression, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        kind = type(expr)
        if kind in (cst.Integer, cst.Float, cst.SimpleString):
            return True
        if kind is cst.Call:
            return self._scalar_call(expr, scope, at, guard)
        if kind is cst.Dict:
            return all(type(e) is cst.DictElement and self._scalar(e.value, scope, at, guard) for e in expr.elements)
        if kind in (cst.Tuple, cst.List):
            return all(type(e) is cst.Element and self._scalar(e.value, scope, at, guard) for e in expr.elements)
        if kind is cst.BinaryOperation:
            return self._scalar(expr.left, scope, at, guard) and self._scalar(expr.right, scope, at, guard)
        if kind is cst.Subscript:
            key = _string_key(expr)
            if key is not None and self._entry_scalar(expr.value, key, scope, at, guard):
                return True  # `out["acc1"]` where what fills that entry is a scalar
            return self._scalar(expr.value, scope, at, guard)  # an element of a container of scalars
        if kind is cst.Name:
            if expr.value in ("True", "False"):
                return True
            if (expr.value, id(at)) in guard:
                return True  # round a loop's back edge: the other bindings decide
            guard.add((expr.value, id(at)))
            bindings = self.reaching_bindings(scope, expr.value, at)
            # `res = []` then `res.append(acc.item())`: what is put in it counts too
            return (
                bool(bindings)
                and all(b.value is not None and self._scalar(unpacked(b)[0], scope, b.node, guard) for b in bindings)
                and all(self._scalar(value, scope, node, guard) for value, node in self._filled(scope, expr.value))
            )
        return False

    def _scalar_call(self, call: cst.Call, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        method = method_name(call)
        resolved = self.model.imports.resolve(call.func) or ""
        if method in _OFF_DEVICE_METHODS or method in _SHAPE_METHODS or resolved in HOST_NUMBER_BUILTINS:
            return True
        if (self.is_loss_call(call) and keyword_arg(call, "reduction") is None) or self._zero_dim(call, at):
            return True  # a torch loss function's default reduction (the mean), a reduced loss module
        if self.is_module_call(call) and self._scalar_returning_module(call, at):
            return True
        if resolved.startswith("torch.") and resolved.rsplit(".", 1)[1] in _REDUCTIONS:
            return len(call.args) == 1 and call.args[0].keyword is None  # `torch.mean(x)`: no dim
        if type(call.func) is cst.Attribute and method in _REDUCTIONS:
            # `x.mean()`; `x.view(-1).sum(0, keepdim=True)`: the one dimension of a flattened tensor, one element
            return not call.args or (_flattened(call.func.value) and all(_first_dim(a) for a in call.args))
        if type(call.func) is cst.Attribute and method in _ARITHMETIC_METHODS:
            # `acc.mul_(100.0 / n)`: a scalar by a scalar
            return self._scalar(call.func.value, scope, at, guard) and all(self._scalar(a.value, scope, at, guard) for a in call.args)
        callees = self.model.local_callees(call)
        if callees:
            return all(self.returns_scalars(f) for f in callees)
        return bool((self.project_callee(call, at) or {}).get("returns_scalars"))  # a function of another file, by its facts

    def _filled(self, scope: "Scope", name: str) -> list[tuple[cst.BaseExpression, cst.CSTNode]]:
        """What `scope` puts into the container `name` (`name.append(v)`, `name.extend(vs)`, `name.insert(i, v)`,
        `name.update(d)`, `name[k] = v`), with where. (One walk of the scope for all its names.)"""
        known = self._fills.get(id(scope))
        if known is None:
            known = self._fills[id(scope)] = {}
            tree = self.model.tree
            for node in tree.descendants(scope, cst.Call) + tree.descendants(scope, cst.Assign):
                if self.model.scope_of(node) is not scope:
                    continue
                if type(node) is cst.Assign:
                    for t in node.targets:
                        if type(t.target) is cst.Subscript and type(t.target.value) is cst.Name:
                            known.setdefault(t.target.value.value, []).append((node.value, node))
                    continue
                func = node.func  # type: ignore[attr-defined]
                if type(func) is not cst.Attribute or type(func.value) is not cst.Name:
                    continue
                filled = known.setdefault(func.value.value, [])
                if func.attr.value in ("append", "extend", "update"):
                    filled.extend((a.value, node) for a in node.args)  # type: ignore[attr-defined]
                elif func.attr.value == "insert" and len(node.args) == 2:  # type: ignore[attr-defined]
                    filled.append((node.args[1].value, node))  # type: ignore[attr-defined]
        return known.get(name, [])

    def _entry_scalar(self, mapping: cst.BaseExpression, key: str, scope: "Scope", at: cst.CSTNode, guard: set) -> bool | None:
        """Is entry `key` of the mapping `mapping` holds at `at` a scalar (`_scalar`), by what fills it: a dict
        written out, `mapping[key] = v` or `mapping.update({key: v})` before `at`, or, for what a function
        of this file returns, its own `return` statements? None where nothing shows the entry filled."""
        kind = type(mapping)
        if kind is cst.Dict:
            values = [e.value for e in mapping.elements if type(e) is cst.DictElement and _literal_key(e.key) == key]
            return self._scalar(values[-1], scope, at, guard) if values else None
        if kind is cst.Call:
            callees = self.model.local_callees(mapping)
            if not callees:
                return None
            found = []
            for callee in callees:
                if ("entry", id(callee), key) in guard:
                    return None
                guard.add(("entry", id(callee), key))
                returns = [r for r in self.model.tree.descendants(callee.body, cst.Return) if self.model.scope_of(r) is callee]
                found.extend(self._entry_scalar(r.value, key, callee, r, guard) if r.value is not None else None for r in returns)
            return None if not found or None in found else all(found)
        if kind is not cst.Name:
            return None
        order = self.model.tree.order
        position = order.get(id(at), -1)
        fills = [
            (value, node)
            for filled, node in self._filled(scope, mapping.value)
            if order[id(node)] < position
            for value in _entries(node, filled, key)
        ]
        if fills:  # the latest writes decide
            return all(self._scalar(value, scope, node, guard) for value, node in fills)
        found = []
        for binding in self.reaching_bindings(scope, mapping.value, at):
            value, index = unpacked(binding)
            mark = ("entry", id(binding.node), key)
            if value is None or index is not None or mark in guard:  # a binding that reaches itself (a loop) shows nothing
                found.append(None)
                continue
            guard.add(mark)  # on this path only: a binding reached twice along two paths is asked twice
            found.append(self._entry_scalar(value, key, scope, binding.node, guard))
            guard.discard(mark)
        return None if not found or None in found else all(found)

    def _passed_device(self, arg: cst.BaseExpression, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        """Is what a method that hands back its argument (`accelerator.gather(x)`) is handed on the
        device? A name is followed to the bindings that reach the call, also where the call's result
        is bound to that very name (`x = accelerator.gather(x)`, which the name's own guard would stop).
        Once per question at each call, like a name (`_device`): a second visit adds nothing to the
        "any", and a copy of the guard per path made chains of gathers exponential."""
        if type(arg) is not cst.Name:
            return self._device(arg, scope, at, guard)
        key = ("passed", id(at))
        if key in guard:
            return False
        guard.add(key)
        return any(
            b.value is not None and b.node is not at and self._device(b.value, scope, b.node, guard)
            for b in self.reaching_bindings(scope, arg.value, at)
        )

    def _returns_device(self, callees: list[cst.FunctionDef], guard: set, element: tuple[int, int] | None = None) -> bool:
        """Does a function of this file return a per-batch device tensor (a model's output, placed or
        not: `return logits.log_softmax(-1)`) by what its `return` statements read? Each function once
        per question, like a name (`_device`): its returns read the same wherever it is called, so a
        second visit adds nothing to the "any" (a copy of the guard per call made a function that
        calls a helper twice, which calls another twice, exponential). With `element` (index, arity): the
        tuples of that arity it returns, where a name unpacks one, unless the name's element is a scalar
        (`metrics` of `return loss, metrics`; other elements are not followed into the helpers they come from)."""
        for callee in callees:
            key = ("returns", id(callee), element)
            if key in guard:
                continue
            guard.add(key)
            for ret in self.model.tree.descendants(callee.body, cst.Return):
                if ret.value is None or self.model.scope_of(ret) is not callee:
                    continue
                value = ret.value
                if element is not None and type(value) is cst.Tuple and not any(type(e) is cst.StarredElement for e in value.elements):
                    if len(value.elements) != element[1]:
                        continue  # a tuple of another length does not unpack into the names
                    if self._scalar(value.elements[element[0]].value, callee, ret, set()):
                        continue  # the name's element is a scalar (`metrics` of `return loss, metrics`)
                if self._device(value, callee, ret, guard):
                    return True
        return False

    def _keeps_device(self, target: cst.BaseExpression, call: cst.Call) -> bool:
        """Is the argument of `.to(target)` a dtype (`torch.float`), or a parameter that defaults
        to None and is never rebound, so that the tensor stays where it was?"""
        resolved = self.model.imports.resolve(target) or ""
        if resolved.startswith("torch.") and resolved.rsplit(".", 1)[-1] in DTYPES:
            return True
        if not isinstance(target, cst.Name):
            return False
        scope = self.model.scope_of(call)
        if not isinstance(scope, cst.FunctionDef) or self.model.bindings(scope, target.value):
            return False
        params = scope.params
        param = next((p for p in [*params.params, *params.kwonly_params] if p.name.value == target.value), None)
        return param is not None and param.default is not None and code(param.default) == "None"

    def _host_module_run(self, call: cst.Call, scope: "Scope", at: cst.CSTNode, guard: set) -> bool:
        """`tr = StreamingTransformer(...)` then `tr(frame)` with `frame = torch.randn(...)`: a module
        made on the host and never placed (`_host_module`), run on tensors none of which is on the
        device, computes on the host (audiocraft's tests; CLIP models loaded for an evaluation)."""
        if not self.host_module(call.func, scope):
            return False
        return not any(self._device(a.value, scope, at, guard) for a in call.args)

    def host_module(self, expr: cst.BaseExpression, scope: "Scope") -> bool:
        """Is `expr`, a name of the function `scope`, a module made on the host there and never
        moved (`_host_module`): its state dict holds CPU tensors, its runs compute on the host?"""
        return type(expr) is cst.Name and isinstance(scope, cst.FunctionDef) and self._host_module(scope, expr.value, 0)

    def _host_module(self, scope: cst.FunctionDef, name: str, depth: int) -> bool:
        """Is every value `name` holds in `scope` a module made on the host: built there (no `device=`,
        arguments that hold no module, tensor or device; a `from_pretrained` load without
        `device_map`), or an element of what a function of this file returns (`text_model, vis_model =
        load_clip()`), or of what every call hands the parameter it is unpacked from (`_host_element`);
        and is it, in `scope`, never moved (`.to(...)`, `.cuda()`), handed to a call that could move
        it, nor used in a nested function?"""
        model = self.model
        bindings = model.bindings(scope, name)
        if not bindings or depth > _HOST_DEPTH:
            return False
        for b in bindings:
            value, element = unpacked(b)
            if value is None:
                return False
            if element is None and not (type(value) is cst.Call and self._made_on_host(value, b.node)):
                return False
            if element is not None and not self._host_element(value, element, b.node, depth):
                return False
        for read in model.tree.descendants(scope.body, cst.Name):
            if read.value != name:
                continue
            parent = model.tree.parent_of(read)
            if type(parent) is cst.Attribute and parent.value is read:
                while type(parent) is cst.Attribute:  # `sampler.eval().requires_grad_(False).to(device)`
                    if parent.attr.value in _DEVICE_PLACEMENT:
                        return False  # moved in place
                    call_of = model.tree.parent_of(parent)
                    outer = model.tree.parent_of(call_of) if type(call_of) is cst.Call else None
                    parent = outer if type(outer) is cst.Attribute else None
                continue
            if type(parent) is cst.Call and parent.func is read:
                continue  # a run of it
            if type(parent) is cst.Arg and self._read_only_argument(parent):
                continue  # `print("loaded", tr)`: read, neither moved nor kept
            if type(parent) is cst.Arg or model.scope_of(read) is not scope:
                return False  # handed on (`accelerator.prepare(tr)`), or used in a nested function
        return True

    def _read_only_argument(self, arg: cst.Arg) -> bool:
        """Is `arg` handed to a builtin that only reads it (`print`, `isinstance`)?"""
        call = self.model.tree.parent_of(arg)
        return type(call) is cst.Call and self.model.imports.resolve(call.func) in READING_BUILTINS

    def _made_on_host(self, value: cst.Call, at: cst.CSTNode) -> bool:
        """A module made without a device: no placement chained on it, and each argument one that
        holds no module, tensor or device (a literal; any size or option of a `torch.nn` layer,
        `nn.Embedding(tokenizer.vocab_size, args.dim)`), or, for a `from_pretrained` load (built on
        the CPU unless `device_map` says otherwise), the weights' name it starts with."""
        if not self._is_module_factory(value) or any(method_name(c) in _DEVICE_PLACEMENT for c in _placements(value)):
            return False
        made = _construction(value)
        resolved = self.model.imports.resolve(made.func) or ""
        loads = resolved.endswith(f".{PRETRAINED_LOAD}")
        options = LAYER_OPTION_PARAMETERS.get(resolved, 0)
        for i, arg in enumerate(made.args):
            if loads and arg.keyword is not None and arg.keyword.value in PRETRAINED_PLACEMENT_KEYWORDS:
                return False
            if options and not arg.star and (
                i < options if arg.keyword is None else arg.keyword.value not in LAYER_PLACING_KEYWORDS
            ):
                continue  # a size or an option of a layer
            if not (loads and i == 0 and arg.keyword is None) and not literal_at(self.model, arg.value, at):
                return False
        return True

    def _host_element(self, value: cst.BaseExpression, element: int, at: cst.CSTNode, depth: int) -> bool:
        """Is element `element` of what `value` holds a module made on the host (`_host_module`): of a
        tuple written out, of every return of the functions of this file it calls, or, for a
        parameter, of what every call of its function hands it (this file's calls, and other files'
        calls of one of its functions: `ProjectFacts.made_elsewhere`)?"""
        model = self.model
        if type(value) is cst.Tuple:
            item = value.elements[element].value if element < len(value.elements) else None
            scope = model.scope_of(value)
            return type(item) is cst.Name and isinstance(scope, cst.FunctionDef) and self._host_module(scope, item.value, depth + 1)
        if type(value) is cst.Call:
            callees = model.local_callees(value)
            returns = [r for f in callees for r in model.tree.descendants(f.body, cst.Return) if model.scope_of(r) is f]
            return bool(callees) and bool(returns) and all(
                r.value is not None and self._host_element(r.value, element, r, depth + 1) for r in returns
            )
        func = model.scope_of(at)
        if type(value) is not cst.Name or not isinstance(func, cst.FunctionDef) or value.value not in model.params(func):
            return False
        handed: list[cst.BaseExpression] = []
        if model.call_sites().get(func):
            handed = model.handed.handed_values(func, value.value)  # type: ignore[attr-defined]
            if not handed:
                return False
        if model.tree.parent_of(func) is model.module:
            names = [p.name.value for p in (*func.params.posonly_params, *func.params.params)]
            position = names.index(value.value) if value.value in names else -1
            makers = model.project.made_elsewhere(func.name.value, value.value, position)
            for maker in makers or ():
                defined = [f for f in model.functions.get(maker, ()) if model.tree.parent_of(f) is model.module]
                if not defined:
                    return False
                handed += [r.value for f in defined for r in model.tree.descendants(f.body, cst.Return) if model.scope_of(r) is f and r.value is not None]
            if makers is None and not model.call_sites().get(func):
                return False
        return bool(handed) and all(self._host_element(v, element, v, depth + 1) for v in handed)

    def _module_moved_to_cpu(self, call: cst.Call) -> bool:
        """`self.model = self.model.to("cpu")` earlier in the block around `call` (an OOM fallback):
        the module called (or the one it wraps, for `self(...)`) now computes on the host."""
        tree = self.model.tree
        callee = code(call.func)
        statement = tree.statement_of(call)
        if isinstance(tree.parent_of(statement), cst.SimpleStatementLine):
            statement = tree.parent_of(statement)
        block = tree.parent_of(statement)
        body = getattr(block, "body", ())
        if not isinstance(body, (list, tuple)) or statement not in body:
            return False
        for earlier in body[: body.index(statement)]:
            for assign in tree.descendants(earlier, cst.Assign) if not isinstance(earlier, cst.Assign) else [earlier]:
                moved = [code(t.target) for t in assign.targets]
                value = assign.value
                to_cpu = isinstance(value, cst.Call) and (
                    method_name(value) == "cpu"
                    or (method_name(value) == "to" and "cpu" in code(value.args[0].value if value.args else value))
                )
                if to_cpu and any(m == callee or (callee == "self" and m.startswith("self.")) for m in moved):
                    return True
        return False


# the methods that move a module (in place) or a tensor to a device
_DEVICE_PLACEMENT = frozenset({"to", "cuda", "to_empty", "xpu", "mps"})
_HOST_DEPTH = 4  # functions and parameters followed to where a module run on the host is made


def _construction(made: cst.Call) -> cst.Call:
    """`Net(...).eval()` -> `Net(...)`."""
    while type(made.func) is cst.Attribute and type(made.func.value) is cst.Call:
        made = made.func.value
    return made


def _placements(made: cst.Call) -> list[cst.Call]:
    """`Net(...).to(device).eval()` -> the calls chained on the construction ([`.eval()`, `.to(device)`])."""
    found = []
    while type(made.func) is cst.Attribute and type(made.func.value) is cst.Call:
        found.append(made)
        made = made.func.value
    return found


_CONTAINER_CONSTRUCTORS = frozenset(
    {"dict", "list", "tuple", "collections.OrderedDict", "collections.defaultdict"}
)


def differentiated_names(expr: cst.BaseExpression) -> list[str]:
    """Names whose values `backward(expr)` differentiates: not a divisor that only scales
    the gradient (`(loss / n).backward()`, `n` an accumulation count)."""
    if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Divide, cst.FloorDivide)):
        return differentiated_names(expr.left)
    if isinstance(expr, cst.Call) and expr.args:
        func = expr.func
        if isinstance(func, cst.Attribute) and not _tensor_method(func.attr.value):
            # `scaler.scale(loss)`: an object applied to what it is handed; the receiver is no value
            # of the graph (a GradScaler holds a scale, not history)
            return [n for a in expr.args for n in differentiated_names(a.value)]
        if isinstance(func, cst.Name):  # `criterion(out, y)`: the callable is no value of the graph
            return [n for a in expr.args for n in differentiated_names(a.value)]
    return list(names_in(expr))


def _iterated_element(
    iterable: cst.BaseExpression, target: cst.BaseExpression, name: str
) -> tuple[cst.BaseExpression, cst.BaseExpression]:
    """The iterable and the loop target part that bind `name`: through `zip(a, b)` (`for x, y in zip(a, b)`
    binds `y` from `b`), else the loop's own."""
    if (
        type(iterable) is cst.Call
        and type(iterable.func) is cst.Name
        and iterable.func.value == "zip"
        and type(target) in (cst.Tuple, cst.List)
        and len(target.elements) == len(iterable.args)
        and not any(a.star or a.keyword for a in iterable.args)
    ):
        for element, arg in zip(target.elements, iterable.args):
            if name in target_names(element.value):
                return arg.value, element.value
    return iterable, target


def _tensor_method(name: str) -> bool:
    """A method of a tensor, whose receiver is a value of the graph (`loss.mean()`, `out.sum(1)`)."""
    return name in TENSOR_METHODS or name in _TENSOR_METHODS or name in _ARITHMETIC_METHODS


def _accelerator_like(name: str) -> bool:
    return bool(re.search(r"accelerator|fabric|engine|scaler|amp|trainer|strategy|deepspeed", name, re.I))


def _item_of(name: str, target: cst.BaseExpression, iterated: cst.BaseExpression) -> str | None:
    """The name a loop binds to each item of `name`: `for t in name`, or the matching element of
    `for a, b in zip(x, name)`; None where it iterates something else."""
    if type(iterated) is cst.Name:
        return target.value if iterated.value == name and type(target) is cst.Name else None
    if not (type(iterated) is cst.Call and type(iterated.func) is cst.Name and iterated.func.value == "zip"):
        return None
    if type(target) not in (cst.Tuple, cst.List) or len(target.elements) != len(iterated.args):
        return None
    for arg, element in zip(iterated.args, target.elements):
        if type(arg.value) is cst.Name and arg.value.value == name and not arg.star and type(element.value) is cst.Name:
            return element.value.value
    return None


def unplaced(expr: cst.BaseExpression) -> cst.BaseExpression:
    """The object a placement or a mode switch is called on, which it returns (`Net().to(device).eval()`: `Net()`)."""
    while type(expr) is cst.Call and method_name(expr) in MODULE_SELF_RETURNING:
        expr = expr.func.value  # type: ignore[attr-defined]
    return expr


def _literal_key(expr: cst.BaseExpression | None) -> str | None:
    """The text of a string written as a mapping's key (`"acc1"`); None for any other key."""
    return expr.evaluated_value if type(expr) is cst.SimpleString and isinstance(expr.evaluated_value, str) else None


def _string_key(subscript: cst.Subscript) -> str | None:
    """`out["acc1"]`: the key's text; None for any other subscript."""
    element = subscript.slice[0].slice if len(subscript.slice) == 1 else None
    return _literal_key(element.value) if type(element) is cst.Index else None


def _entries(node: cst.CSTNode, filled: cst.BaseExpression, key: str) -> list[cst.BaseExpression]:
    """What a write into a mapping (`m[key] = v`, `m.update({key: v})`) puts under `key`."""
    if type(node) is cst.Assign:
        return [filled] if any(type(t.target) is cst.Subscript and _string_key(t.target) == key for t in node.targets) else []
    if type(filled) is cst.Dict and method_name(node) == "update":  # type: ignore[arg-type]
        return [e.value for e in filled.elements if type(e) is cst.DictElement and _literal_key(e.key) == key]
    return []


def _flattened(expr: cst.BaseExpression) -> bool:
    """Is `expr` one-dimensional by its last shaping call (`x.view(-1)`, `x.reshape(-1)`, `x.flatten()`),
    through casts and copies that keep the shape (`.float()`, `.contiguous()`)?"""
    while type(expr) is cst.Call and type(expr.func) is cst.Attribute:
        method = expr.func.attr.value
        if method in ("view", "reshape"):
            return len(expr.args) == 1 and _minus_one(expr.args[0].value)
        if method == "flatten":
            return not expr.args
        if method not in ("float", "double", "half", "long", "int", "bool", "contiguous", "detach", "clone"):
            return False
        expr = expr.func.value
    return False


def _minus_one(expr: cst.BaseExpression) -> bool:
    return type(expr) is cst.UnaryOperation and type(expr.operator) is cst.Minus and type(expr.expression) is cst.Integer and expr.expression.value == "1"


def _first_dim(arg: cst.Arg) -> bool:
    """An argument of a reduction over a one-dimensional tensor's only dimension: `0` or `-1` (`dim=`), or `keepdim=`."""
    if arg.keyword is not None and arg.keyword.value == "keepdim":
        return True
    value = arg.value
    return (arg.keyword is None or arg.keyword.value == "dim") and ((type(value) is cst.Integer and value.value == "0") or _minus_one(value))


def _element_values(container: cst.BaseExpression, imports: "Imports") -> list[cst.BaseExpression]:
    """What the elements of a container built by `container` are built from (its values, for a
    mapping); [] where that is not shown."""
    kind = type(container)
    if kind is cst.DictComp:
        return [container.value]
    if kind in (cst.ListComp, cst.SetComp, cst.GeneratorExp):
        return [container.elt]
    if kind is cst.Dict:
        return [e.value for e in container.elements if type(e) is cst.DictElement]
    if kind in (cst.List, cst.Tuple, cst.Set):
        return [e.value for e in container.elements if type(e) is cst.Element]
    if kind is not cst.Call or len(container.args) != 1:
        return []
    made = (imports.resolve(container.func) or "").rpartition(".")[2]
    arg = container.args[0].value
    if made == "defaultdict":
        return [made_by_factory(arg, imports)]  # `defaultdict(Meter)`: each value made by `Meter()`
    if made in ("dict", "OrderedDict") and type(arg) in (cst.GeneratorExp, cst.ListComp):
        pair = arg.elt  # `dict((n, Meter()) for n in names)`
        return [pair.elements[1].value] if type(pair) is cst.Tuple and len(pair.elements) == 2 else []
    if made in ("list", "tuple"):
        return _element_values(arg, imports)
    return []


def _as_called(call: cst.Call, func: cst.FunctionDef) -> cst.Call:
    """`call` of a callable handed in as a value, as a call of `func` itself: of a method handed bound
    (`self.forward_batch`), as `self.forward_batch(...)`, so that its arguments skip `self`."""
    params = func.params.params
    if params and params[0].name.value in ("self", "cls") and type(call.func) is cst.Name:
        return call.with_changes(func=cst.Attribute(value=cst.Name(params[0].name.value), attr=cst.Name(func.name.value)))
    return call


def made_by_factory(factory: cst.BaseExpression, imports: "Imports") -> cst.Call:
    """The call that calling `factory` amounts to: `Meter()` for `Meter`, and for
    `functools.partial(Meter, window_size=20)` too (the partial's arguments aside)."""
    if (
        type(factory) is cst.Call
        and imports.resolve(factory.func) == "functools.partial"
        and factory.args
        and factory.args[0].keyword is None
        and not factory.args[0].star
    ):
        return cst.Call(func=factory.args[0].value)
    return cst.Call(func=factory)


def _own_entries_loop(tree: Tree, statement: cst.CSTNode, target: cst.Subscript) -> cst.For | None:
    """The loop right around `statement` that goes over the entries of the container `target` stores
    into, keyed by the loop's own key (`for k, v in d.items(): d[k] = ...`, `for k in d: d[k] = ...`)."""
    loop = next((a for a in tree.ancestors(statement) if type(a) in (cst.For, cst.FunctionDef)), None)
    if type(loop) is not cst.For or len(target.slice) != 1 or type(target.slice[0].slice) is not cst.Index:
        return None
    key = target.slice[0].slice.value
    container = loop.iter.func.value if type(loop.iter) is cst.Call and type(loop.iter.func) is cst.Attribute else loop.iter
    if type(container) is not cst.Name or container.value != target.value.value or type(key) is not cst.Name:  # type: ignore[attr-defined]
        return None
    first = loop.target.elements[0].value if type(loop.target) is cst.Tuple and loop.target.elements else loop.target
    return loop if type(first) is cst.Name and first.value == key.value else None


def _annotated_parameter(func: cst.FunctionDef, name: str) -> str | None:
    """The class (as written) that `func`'s parameter `name` is annotated with, where it is a plain name."""
    for param in [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]:
        if param.name.value == name and param.annotation is not None:
            return dotted(param.annotation.annotation)
    return None


def _rebinds(block: cst.BaseSuite, name: str) -> bool:
    """Does a statement of `block` itself (not one nested in a branch of it) assign `name` alone?"""
    return type(block) is cst.IndentedBlock and any(
        type(line) is cst.SimpleStatementLine
        and any(
            type(small) is cst.Assign and any(type(t.target) is cst.Name and t.target.value == name for t in small.targets)
            for small in line.body
        )
        for line in block.body
    )

"""What a parameter, an annotation, a class or a return value holds: a module
(weights on the device), a tensor, or something else.

Answers lean towards "other": an unannotated parameter counts as a module or
tensor only when its name says so (`model`, `layer`, `hidden_states`), a class
only when it subclasses a module, defines `forward`, or stores a module or a
tensor on `self`.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.flow.values import MAYBE, NO, Value
from memlint.analysis.syntax.expressions import method_name, root_name
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

_MODULE_CLASSES: "weakref.WeakKeyDictionary[FileContext, set[str]]" = weakref.WeakKeyDictionary()

MODULE = "module"
TENSOR = "tensor"

_TENSOR_TYPE = re.compile(r"(^|\.)(Tensor|FloatTensor|LongTensor|HalfTensor|BFloat16Tensor|BoolTensor|IntTensor|Parameter|DTensor)$")
_MODULE_TYPE = re.compile(
    r"(^torch\.nn\.(modules\.\w+\.)?[A-Z]\w*$)|(^|\.)(Module|LightningModule|PreTrainedModel|ModelMixin|"
    r"PeftModel|ModuleList|ModuleDict|Sequential)$"
)
_MODULE_BASE = re.compile(r"(Module|Model|ModelMixin)$")
_NOT_TENSOR_TORCH = re.compile(
    r"^torch\.(device|dtype|Size|finfo|iinfo|Generator|is_\w+|get_\w+|set_\w+|cuda\.|backends\.|distributed\.|"
    r"jit\.|compile$|no_grad$|inference_mode$|enable_grad$|autocast$|amp\.|utils\.|nn\.)"
)
_MODULE_PARAM = re.compile(
    r"^_*(model|models|module|modules|submodule|layer|layers|net|network|encoder|decoder|backbone|block|"
    r"blocks|head|mod|teacher|student|policy|critic|agent)$|_(model|module|layer|net|encoder|decoder|block)$",
    re.IGNORECASE,
)
_TENSOR_PARAM = re.compile(
    r"^_*(tensor|tensors|hidden_states?|logits|activations?|embeddings?|features|weight_tensor)$|_tensors?$",
    re.IGNORECASE,
)
_MODULE_ATTRIBUTE = re.compile(
    r"^_*(model|models|module|net|network|encoder|decoder|backbone|agent|agents|teacher|student|policy|world)$"
    r"|_(model|module|net|encoder|decoder)$",
    re.IGNORECASE,
)
_TENSOR_FACTORY = re.compile(
    r"^torch\.(tensor|as_tensor|from_numpy|zeros|ones|empty|full|arange|linspace|eye|rand|randn|randint|"
    r"zeros_like|ones_like|empty_like|full_like|rand_like|randn_like|nn\.Parameter|nn\.parameter\.Parameter)$"
)
_TENSOR_METHODS = {
    "to", "cuda", "view", "reshape", "expand", "contiguous", "unsqueeze", "squeeze", "float", "half", "bfloat16",
    "long", "int", "bool", "repeat", "transpose", "permute", "flatten", "clone", "detach", "requires_grad_", "t",
}


def annotation_kind(model: "FileContext", annotation: cst.BaseExpression | None) -> str | None:
    """MODULE or TENSOR when the annotation names one (also inside `Optional[...]`,
    `list[...]`, `X | None`); "other" for any other annotation; None without one."""
    if annotation is None:
        return None
    kinds = _annotation_kinds(model, annotation)
    for kind in (MODULE, TENSOR):
        if kind in kinds:
            return kind
    return "other"


def _annotation_kinds(model: "FileContext", expr: cst.BaseExpression) -> set[str]:
    if type(expr) is cst.SimpleString:
        try:
            inner = cst.parse_expression(expr.evaluated_value)
        except Exception:  # noqa: BLE001 - a string annotation that is no expression
            return set()
        return _annotation_kinds(model, inner)
    if type(expr) is cst.BinaryOperation:
        return _annotation_kinds(model, expr.left) | _annotation_kinds(model, expr.right)
    if type(expr) is cst.Subscript:
        kinds = _annotation_kinds(model, expr.value)
        for element in expr.slice:
            if type(element.slice) is cst.Index:
                kinds |= _annotation_kinds(model, element.slice.value)
        return kinds
    if type(expr) in (cst.Tuple, cst.List):
        out: set[str] = set()
        for element in expr.elements:
            out |= _annotation_kinds(model, element.value)
        return out
    name = model.imports.resolve(expr) if type(expr) in (cst.Name, cst.Attribute) else None
    if not name:
        return set()
    if _TENSOR_TYPE.search(name):
        return {TENSOR}
    if _MODULE_TYPE.search(name) or name in module_classes(model):
        return {MODULE}
    return set()


def param_kind(model: "FileContext", param: cst.Param) -> str | None:
    """MODULE or TENSOR for a parameter annotated as one; "other" for any other annotation; None
    without one."""
    annotation = param.annotation.annotation if param.annotation is not None else None
    return annotation_kind(model, annotation)


def named_kind(name: str) -> str | None:
    """MODULE or TENSOR where a parameter's name alone says so (`model`, `shira_layer`,
    `hidden_states`): a guess, for code that shows nothing else."""
    if _MODULE_PARAM.search(name):
        return MODULE
    if _TENSOR_PARAM.search(name):
        return TENSOR
    return None


def module_classes(model: "FileContext") -> set[str]:
    """Names of this file's classes that are modules (a module base, or a `forward`)."""
    cached = _MODULE_CLASSES.get(model)
    if cached is not None:
        return cached
    found: set[str] = set()
    for cls in model.tree.by_type.get(cst.ClassDef, ()):
        if any(_MODULE_BASE.search(model.imports.resolve(base.value) or "") for base in cls.bases) or any(
            isinstance(stmt, cst.FunctionDef) and stmt.name.value == "forward" for stmt in cls.body.body
        ):
            found.add(cls.name.value)
    _MODULE_CLASSES[model] = found
    return found


def class_holds_modules(model: "FileContext", cls: cst.ClassDef, seen: frozenset[str] = frozenset()) -> str | None:
    """Why instances of `cls` hold device memory, in words, or None: it is a
    module, it stores a module or a tensor on `self`, or a base class of this
    file does (`HogwildWorld(World)`: `World.__init__` stores the agents)."""
    own = _holds_itself(model, cls)
    if own is not None:
        return own
    classes = {c.name.value: c for c in model.tree.by_type.get(cst.ClassDef, ())}
    for base in cls.bases:
        name = base.value.value if isinstance(base.value, cst.Name) else None
        if name in classes and name not in seen and name != cls.name.value:
            inherited = class_holds_modules(model, classes[name], seen | {cls.name.value})
            if inherited is not None:
                return inherited if inherited.startswith("its base") else f"its base `{name}`: {inherited}"
    return None


def _holds_itself(model: "FileContext", cls: cst.ClassDef) -> str | None:
    if cls.name.value in module_classes(model):
        return "a module"
    tree = model.tree
    for assign in tree.descendants(cls, cst.Assign):
        for target in assign.targets:
            t = target.target
            if not (isinstance(t, cst.Attribute) and isinstance(t.value, cst.Name) and t.value.value == "self"):
                continue
            value = assign.value
            if _MODULE_ATTRIBUTE.search(t.attr.value) and not _is_constant(value):
                return f"it stores `self.{t.attr.value}`"
            if is_module_factory(model, value):
                return f"it stores a module in `self.{t.attr.value}`"
            if is_tensor_factory(model, value):
                return f"it stores a tensor in `self.{t.attr.value}`"
    for call in tree.descendants(cls, cst.Call):
        if method_name(call) in ("register_buffer", "register_parameter") and root_name(call.func) == "self":
            return "it registers buffers"
    return None


def _is_constant(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.Name):
        return expr.value in ("None", "True", "False")
    return isinstance(expr, (cst.SimpleString, cst.ConcatenatedString, cst.Integer, cst.Float, cst.Dict, cst.List, cst.Tuple))


def is_module_factory(model: "FileContext", expr: cst.BaseExpression) -> bool:
    while isinstance(expr, cst.Call) and method_name(expr) in ("to", "cuda", "train", "eval", "half", "bfloat16"):
        expr = expr.func.value  # type: ignore[union-attr]
    if not isinstance(expr, cst.Call):
        return False
    name = model.imports.resolve(expr.func) or ""
    if re.search(r"(^torch\.nn\.[A-Z]\w*$)|(\.from_pretrained$)", name) and "Parameter" not in name:
        return True
    return isinstance(expr.func, cst.Name) and expr.func.value in module_classes(model)


def is_tensor_factory(model: "FileContext", expr: cst.BaseExpression) -> bool:
    """`torch.zeros(...)`, `torch.tensor(...).to(device)`, `nn.Parameter(...)`."""
    while isinstance(expr, cst.Call) and method_name(expr) in _TENSOR_METHODS:
        expr = expr.func.value  # type: ignore[union-attr]
    if not isinstance(expr, cst.Call):
        return False
    return bool(_TENSOR_FACTORY.match(model.imports.resolve(expr.func) or ""))


def returns_tensor(model: "FileContext", func: cst.FunctionDef) -> bool:
    """Does `func` return tensors: annotated so, or a `return` of a torch
    computation (also inside a returned tuple), directly or through a local name?"""
    if func.returns is not None:
        kind = annotation_kind(model, func.returns.annotation)
        return kind == TENSOR
    for ret in model.tree.descendants(func, cst.Return):
        if ret.value is None or model.scope_of(ret) is not func:
            continue
        values = [e.value for e in ret.value.elements] if isinstance(ret.value, cst.Tuple) else [ret.value]
        for value in values:
            if _is_torch_value(model, value, func, depth=0):
                return True
    return False


def _is_torch_value(model: "FileContext", expr: cst.BaseExpression, func: cst.FunctionDef, depth: int) -> bool:
    while isinstance(expr, cst.Call) and method_name(expr) in _TENSOR_METHODS:
        expr = expr.func.value  # type: ignore[union-attr]
    if isinstance(expr, cst.Call):
        name = model.imports.resolve(expr.func) or ""
        return name.startswith("torch.") and not _NOT_TENSOR_TORCH.match(name) or bool(_TENSOR_FACTORY.match(name))
    if isinstance(expr, cst.BinaryOperation):
        return _is_torch_value(model, expr.left, func, depth) or _is_torch_value(model, expr.right, func, depth)
    if isinstance(expr, cst.Name) and depth < 3:
        return any(
            b.value is not None and _is_torch_value(model, b.value, func, depth + 1)
            for b in model.bindings(func, expr.value)
        )
    return False


# Builtin types a return annotation may name: what a value of each is (none carries autograd history).
_PLAIN_RETURNS = {"int": "number", "float": "number", "bool": "number", "complex": "number", "str": "object", "bytes": "object", "None": "none"}
_TUPLES = {"tuple", "Tuple", "typing.Tuple"}


def annotated_value(model: "FileContext", annotation: cst.BaseExpression) -> Value | None:
    """What a return annotation says of the value (`-> tuple[torch.Tensor, int]`: a tuple whose second
    element is an int, with no history), element by element for a tuple of fixed length; None where it
    says nothing the flow facts hold (a class, a container of unknowns)."""
    if type(annotation) is cst.Subscript and (dotted(annotation.value) or "") in _TUPLES:
        items = [e.slice.value for e in annotation.slice if type(e.slice) is cst.Index]
        if not items or any(type(i) is cst.Ellipsis for i in items):
            return None
        elements = [annotated_value(model, item) or Value() for item in items]
        history = NO if all(e.history == NO for e in elements) else MAYBE
        return Value(history=history, kind="sequence", elements=tuple(elements))
    written = dotted(annotation) or ""
    if written in _PLAIN_RETURNS:
        return Value(history=NO, kind=_PLAIN_RETURNS[written])
    if annotation_kind(model, annotation) == TENSOR:
        return Value(history=MAYBE, kind="tensor")
    return None


def refined_by_annotation(model: "FileContext", func: cst.FunctionDef, returned: Value | None) -> Value | None:
    """What `func` returns, its flow facts (`returned`, None where its body returns nothing to read: an
    abstract method) refined by its return annotation: an element the annotation says is a number
    carries no history, whatever the body's flow guessed."""
    if func.returns is None:
        return returned
    said = annotated_value(model, func.returns.annotation)
    if said is None:
        return returned
    if returned is None:
        return said
    if said.elements and len(said.elements) == len(returned.elements):
        elements = tuple(
            s if s.history == NO else r for s, r in zip(said.elements, returned.elements)
        )
        history = NO if all(e.history == NO for e in elements) else returned.history
        return replace(returned, elements=elements, history=history)
    return said if said.history == NO and not said.elements else returned

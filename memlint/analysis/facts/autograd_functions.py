"""Custom `torch.autograd.Function`s and the tensors their `forward` parks on `ctx`."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import code, method_name, names_in, reads_as_name, root_name
from memlint.analysis.library import (
    HOST_TENSOR_FUNCTIONS, NON_TENSOR_FUNCTIONS, PARAMETER_CLASSES, SIZE_FACTORIES, TENSOR_METHODS,
)
from memlint.analysis.tensor_api import TENSOR_API

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext
    from memlint.analysis.flow.provenance import Provenance

_NOT_TENSOR_ATTRIBUTES = {"shape", "dtype", "device", "requires_grad", "is_cuda", "ndim", "layout", "is_leaf"}
_NOT_TENSOR_METHODS = {
    "size", "dim", "numel", "item", "tolist", "stride", "is_contiguous", "data_ptr", "get_device",
    "element_size", "nelement", "is_floating_point", "storage_offset",
}
_NOT_TENSOR_TORCH = (
    "torch.is_grad_enabled", "torch.is_tensor", "torch.is_autocast_enabled", "torch.get_autocast_",
    "torch.finfo", "torch.iinfo", "torch.Size", "torch.device", "torch.dtype", "torch.numel",
    "torch.cuda.", "torch.distributed.get_", "torch.get_default_dtype",
)
_SCALAR_ANNOTATIONS = ("int", "float", "bool", "str", "tuple", "Tuple", "list", "List", "Sequence", "dict", "Dict")


_OPTIONAL = ("Optional", "Union")


def _no_tensor_annotation(annotation: cst.BaseExpression) -> bool:
    """Does the annotation declare a value that is no tensor: a scalar or a container of them
    (`float`, `Tuple[int, int]`), also where it may be None (`Optional[float]`, `float | None`,
    `Union[int, float]`)?"""
    if "Tensor" in code(annotation):
        return False
    if type(annotation) is cst.BinaryOperation and type(annotation.operator) is cst.BitOr:
        return all(_no_tensor_annotation(side) or code(side) == "None" for side in (annotation.left, annotation.right))
    if type(annotation) is cst.Subscript and code(annotation.value).split(".")[-1] in _OPTIONAL:
        kinds = [e.slice.value for e in annotation.slice if type(e.slice) is cst.Index]
        return bool(kinds) and all(_no_tensor_annotation(k) or code(k) == "None" for k in kinds)
    return code(annotation).split("[")[0].split(".")[-1] in _SCALAR_ANNOTATIONS


@dataclass(frozen=True)
class CtxStore:
    function: cst.ClassDef  # the autograd.Function subclass
    assign: cst.Assign
    attributes: tuple[str, ...]  # `ctx.<attr>` names that receive tensors
    deleted_by_backward: bool = False  # backward `del`s every one of them: freed when it runs


class AutogradFunctions:
    def __init__(self, model: "FileContext", provenance: "Provenance") -> None:
        self.model = model
        self.provenance = provenance

    def is_function_class(self, cls: cst.ClassDef) -> bool:
        for base in cls.bases:
            name = self.model.imports.resolve(base.value) or ""
            if name in ("torch.autograd.Function", "torch.autograd.function.Function") or (
                name.endswith(".autograd.Function")
            ):
                return True
        return False

    @cached_property
    def tensor_stores(self) -> list[CtxStore]:
        """Every `ctx.<attr> = <tensor or container of tensors>` in a Function.forward."""
        found = []
        for cls in self.model.tree.by_type.get(cst.ClassDef, ()):
            if not self.is_function_class(cls):
                continue
            for func in self.model.tree.descendants(cls.body, cst.FunctionDef):
                if func.name.value != "forward" or self.model.enclosing_class(func) is not cls:
                    continue
                params = [*func.params.posonly_params, *func.params.params]
                if not params:
                    continue
                ctx = params[0].name.value
                passed = self._passed_tensors(cls, func) | _differentiated_inputs(cls, func)
                checker = _TensorEvidence(self.model, func, ctx, passed)
                called = _called_ctx_attributes(cls)
                deleted = _deleted_ctx_attributes(cls)
                for assign in self.model.tree.descendants(func.body, cst.Assign):
                    attributes = [
                        t.attr.value
                        for target in assign.targets
                        for t, value in _pairs(target.target, assign.value)
                        if isinstance(t, cst.Attribute)
                        and isinstance(t.value, cst.Name)
                        and t.value.value == ctx
                        and t.attr.value not in called
                        and checker.is_tensor(value)
                        # detached and deleted by backward: no graph to keep it, freed when backward runs
                        and not (t.attr.value in deleted and isinstance(value, cst.Call) and method_name(value) == "detach")
                    ]
                    if attributes:
                        found.append(CtxStore(cls, assign, tuple(attributes), all(a in deleted for a in attributes)))
        return found


    def _passed_tensors(self, cls: cst.ClassDef, forward: cst.FunctionDef) -> set[str]:
        """Parameters of `forward` that a `Cls.apply(...)` call passes a tensor, or a dict, list or
        tuple holding one: a call of this file, or, for a class at the file's top level, one of
        another file of the project (`FusedOp.apply(x, self.weight)` in the module that uses it)."""
        inputs = [p.name.value for p in [*forward.params.posonly_params, *forward.params.params]][1:]
        top = self.model.tree.parent_of(cls) is self.model.module
        aliases = self._apply_aliases(cls) if top else set()  # `lookup = LookupOp.apply`, called as `lookup(x, w)`
        positions: set[int | str] = set()
        for call in self.model.tree.by_type.get(cst.Call, ()):
            func = call.func
            applied = isinstance(func, cst.Attribute) and func.attr.value == "apply" and reads_as_name(func.value, cls.name.value)
            if applied or (type(func) is cst.Name and func.value in aliases):
                positions.update(self._tensor_arguments(call))
        if top:
            for applied_as in (f"{cls.name.value}.apply", *sorted(aliases)):  # `from ops import lookup` elsewhere too
                positions.update(self.model.project.tensors_handed_elsewhere(applied_as))
        return {inputs[p] if type(p) is int else p for p in positions if type(p) is not int or p < len(inputs)}

    def _apply_aliases(self, cls: cst.ClassDef) -> set[str]:
        """The names the file binds at its top level to `Cls.apply` (`lookup = LookupOp.apply`)."""
        module = self.model.module
        return {
            target.target.value
            for statement in self.model.tree.by_type.get(cst.Assign, ())
            if self.model.tree.parent_of(self.model.tree.parent_of(statement)) is module
            and type(statement.value) is cst.Attribute
            and statement.value.attr.value == "apply"
            and reads_as_name(statement.value.value, cls.name.value)
            for target in statement.targets
            if type(target.target) is cst.Name
        }

    def _tensor_arguments(self, call: cst.Call) -> list[int | str]:
        """The positions (keywords) of `call`'s arguments that are tensors, or containers holding one,
        up to the first starred one."""
        found: list[int | str] = []
        for position, arg in enumerate(call.args):
            if arg.star:
                break
            if self._holds_tensor(arg.value, call, frozenset()):
                found.append(arg.keyword.value if arg.keyword is not None else position)
        return found

    def applied_tensors(self, imported: list[tuple[cst.Call, str]]) -> list[list]:
        """The calls of this file that apply an imported autograd Function (`FusedOp.apply(x, self.weight)`,
        or `lookup(x, self.table)` where its file binds `lookup = LookupOp.apply`: its facts' `applies`; the
        callee as written) and hand it tensors: [callee, [positions (keywords) of the tensors]].
        The Function's own file reads them as evidence of which inputs of its `forward` are tensors."""
        found = []
        for call, name in imported:
            applied = name.rpartition(".")[2] == "apply" and "." in name
            if applied or ("." not in name and (self.model.project.function(call) or {}).get("applies")):
                positions = self._tensor_arguments(call)
                if positions:
                    found.append([name, positions])
        return found

    def _holds_tensor(self, expr: cst.BaseExpression, at: cst.CSTNode, guard: frozenset) -> bool:
        """Is `expr`, where `at` runs, a tensor or a container literal holding one?"""
        if not any(True for _ in names_in(expr)):
            return False  # a constant: `32 ** -0.5`, `"mean"`, `None`
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            return any(self._holds_tensor(e.value, at, guard) for e in expr.elements)
        if isinstance(expr, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self._holds_tensor(e.value, at, guard) for e in expr.elements)
        if isinstance(expr, cst.Call):
            resolved = self.model.imports.resolve(expr.func) or ""
            if resolved in PARAMETER_CLASSES:
                return True  # `nn.Parameter(torch.randn(n, d))`
            if resolved.startswith("torch.") and not resolved.startswith(_NOT_TENSOR_TORCH):
                return not resolved.startswith(("torch.distributed.", "torch.nn.", "torch.device", "torch.dtype"))
        if isinstance(expr, cst.Attribute) and expr.attr.value.endswith(("weight", "bias")):
            return True
        if isinstance(expr, cst.Attribute) and reads_as_name(expr.value, "self") and expr.attr.value not in guard:
            # `self.table`: what the methods of its class assign it (`self.table = nn.Parameter(...)`)
            held = self.provenance.held_values(expr, at)
            inner = guard | {expr.attr.value}
            if any(self._holds_tensor(value, value, inner) for value in held):
                return True
        if isinstance(expr, cst.Name) and expr.value not in guard:
            scope = self.model.scope_of(at)
            bindings = self.provenance.reaching_bindings(scope, expr.value, at)
            if any(b.value is not None and self.provenance.makes_module(b.value) for b in bindings):
                return False  # a module handed over to be run (a checkpointed block)
            for binding in bindings:
                if binding.value is not None and self._holds_tensor(binding.value, binding.node, guard | {expr.value}):
                    return True
        provenance = self.provenance
        return (
            provenance.value_kind(expr, at) == "tensor"
            or provenance.carries_history(expr, at)
            or provenance.device_output(expr, at)
        )


class _TensorEvidence:
    """Positive evidence that an expression in `forward` is a tensor: a parameter
    counts only when `forward` uses it as one (annotated `Tensor`, passed to a
    torch function, a tensor method or attribute read on it, returned, saved) or
    a `.apply(...)` call passes it one; one that `forward` calls is a callable."""

    def __init__(self, model: "FileContext", func: cst.FunctionDef, ctx: str, passed: set[str]) -> None:
        self.model = model
        self.func = func
        self.ctx = ctx
        self.passed = passed  # parameters `.apply(...)` callers pass tensors
        self.params = {
            p.name.value: p for p in [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]
        }
        self._tensor_params = self._find_tensor_params()

    def _find_tensor_params(self) -> set[str]:
        tensors: set[str] = set(self.passed)
        for name, param in self.params.items():
            if name == self.ctx:
                continue
            if param.annotation is not None:
                text = code(param.annotation.annotation)
                if "Tensor" in text:
                    tensors.add(name)
        tree = self.model.tree
        for call in tree.descendants(self.func.body, cst.Call):
            resolved = self.model.imports.resolve(call.func) or ""
            method = method_name(call)
            if method == "save_for_backward":
                tensors.update(a.value.value for a in call.args if isinstance(a.value, cst.Name))
            elif (
                resolved.startswith("torch.")
                and not resolved.startswith(_NOT_TENSOR_TORCH)
                and resolved not in SIZE_FACTORIES  # `torch.empty(num_layers, ...)`: sizes
                and resolved not in NON_TENSOR_FUNCTIONS  # `_pair(stride)`: an int or a tuple of them
                and call.args
            ):
                first = call.args[0]  # the input tensor; later arguments are often dims and flags
                if first.keyword is None and isinstance(first.value, cst.Name):
                    tensors.add(first.value.value)
            if method and isinstance(call.func.value, cst.Name) and method not in _NOT_TENSOR_METHODS:
                # only a method `torch.Tensor` has: `handler.on_group_commit_forward()` calls an object
                if method in TENSOR_API and method not in ("append", "get", "items", "keys", "values", "format"):
                    tensors.add(call.func.value.value)
        for attr in tree.descendants(self.func.body, cst.Attribute):
            if attr.attr.value in ("shape", "T", "dtype", "device") and isinstance(attr.value, cst.Name):
                tensors.add(attr.value.value)
        # forward returns tensors: what it returns (or does arithmetic on to return) is one
        for ret in tree.descendants(self.func.body, cst.Return):
            if ret.value is not None:
                tensors.update(_returned_names(ret.value))
        for binop in tree.descendants(self.func.body, cst.BinaryOperation):
            if isinstance(binop.operator, cst.MatrixMultiply):
                for side in (binop.left, binop.right):
                    if isinstance(side, cst.Name):
                        tensors.add(side.value)
        for name in list(tensors):
            param = self.params.get(name)
            if param is not None and param.annotation is not None and _no_tensor_annotation(param.annotation.annotation):
                tensors.discard(name)
        for call in tree.descendants(self.func.body, cst.Call):
            if isinstance(call.func, cst.Name) and call.func.value in self.params:
                tensors.discard(call.func.value)  # `run_function(*args)`: a callable, not a tensor
        tensors.discard(self.ctx)
        return tensors

    def _filled_with(self, name: str) -> list[cst.BaseExpression]:
        """What `forward` puts into the container `name` after creating it."""
        found = []
        for node_type in (cst.Assign, cst.Expr):
            for statement in self.model.tree.descendants(self.func.body, node_type):
                value = _stored_into(statement, name)
                if value is not None:
                    found.append(value)
        return found

    def is_tensor(self, expr: cst.BaseExpression, guard: set[str] | None = None) -> bool:
        if guard is None:
            guard = set()
        if isinstance(expr, cst.Name):
            if expr.value in self._tensor_params:
                return True
            # each name once per question: what it is bound to reads the same wherever it is read
            # (every binding of the function), so a second visit adds nothing to the "any"; a copy
            # of the guard per path made `b = a + a; c = b + b; ...` exponential
            if expr.value in guard:
                return False
            guard.add(expr.value)
            bindings = self.model.bindings(self.func, expr.value)
            return any(b.value is not None and self.is_tensor(b.value, guard) for b in bindings) or any(
                self.is_tensor(value, guard) for value in self._filled_with(expr.value)
            )
        if isinstance(expr, cst.Attribute):
            if expr.attr.value in _NOT_TENSOR_ATTRIBUTES or root_name(expr) == self.ctx:
                return False
            return expr.attr.value in ("T", "data", "grad", "mT", "H") and self.is_tensor(expr.value, guard)
        if isinstance(expr, cst.Subscript):
            return self.is_tensor(expr.value, guard)
        if isinstance(expr, cst.Call):
            resolved = self.model.imports.resolve(expr.func) or ""
            if _zero_elements(expr, resolved):
                return False  # `x.new_empty(0)`: a scratch handle with no element and no history
            if resolved.startswith("torch."):
                # a generator's state is a CPU ByteTensor: it holds no device memory; `_pair(stride)` is a tuple
                return (
                    not resolved.startswith(_NOT_TENSOR_TORCH)
                    and resolved not in HOST_TENSOR_FUNCTIONS
                    and resolved not in NON_TENSOR_FUNCTIONS
                )
            method = method_name(expr)
            model = TENSOR_METHODS.get(method or "")
            if model is not None and model.location == "host":
                return False  # `x.cpu()`, `x.tolist()`: moved off the device
            if method and method not in _NOT_TENSOR_METHODS:
                return self.is_tensor(expr.func.value, guard)
            return False
        if isinstance(expr, cst.BinaryOperation):
            return self.is_tensor(expr.left, guard) or self.is_tensor(expr.right, guard)
        if isinstance(expr, cst.Comparison):  # `x > 0` on a tensor is a bool tensor
            if all(isinstance(c.operator, _PYTHON_BOOL_OPERATORS) for c in expr.comparisons):
                return False  # `bias is not None`, `k in d`: a Python bool, whatever the operands
            return self.is_tensor(expr.left, guard) or any(self.is_tensor(c.comparator, guard) for c in expr.comparisons)
        if isinstance(expr, (cst.Tuple, cst.List)):
            return any(self.is_tensor(e.value, guard) for e in expr.elements)
        if isinstance(expr, cst.Dict):
            return any(isinstance(e, cst.DictElement) and self.is_tensor(e.value, guard) for e in expr.elements)
        if isinstance(expr, (cst.ListComp, cst.GeneratorExp)):
            return self.is_tensor(expr.elt, guard)
        return False


_PYTHON_BOOL_OPERATORS = (cst.Is, cst.IsNot, cst.In, cst.NotIn)
# Tensor factories whose positional arguments are the sizes (`torch.empty(0, 3)`, `x.new_zeros(0)`), and
# those whose first argument alone is (`torch.full((0,), value)`).
_SIZED_BY_ARGUMENTS = {"torch.empty", "torch.zeros", "torch.ones", "new_empty", "new_zeros", "new_ones"}
_SIZED_BY_FIRST = {"torch.full", "new_full"}


def _zero_elements(call: cst.Call, resolved: str) -> bool:
    """A tensor factory with a size of literal 0 (`x.new_empty(0)`, `torch.zeros((0, 4))`): a tensor with
    no element holds no memory, and a new one has no history."""
    made = resolved if resolved.startswith("torch.") else method_name(call) or ""
    if made not in _SIZED_BY_ARGUMENTS and made not in _SIZED_BY_FIRST:
        return False
    sizes = [a.value for a in call.args if a.keyword is None and not a.star]
    if not sizes:
        return False
    if made in _SIZED_BY_FIRST or isinstance(sizes[0], (cst.Tuple, cst.List)):
        first = sizes[0]
        sizes = [e.value for e in first.elements] if isinstance(first, (cst.Tuple, cst.List)) else [first]
    return any(isinstance(size, cst.Integer) and size.evaluated_value == 0 for size in sizes)


def _differentiated_inputs(cls: cst.ClassDef, forward: cst.FunctionDef) -> set[str]:
    """Parameters of `forward` that `backward` returns a gradient for (anything but `None` at their
    position): autograd accepts a gradient only for an input that is a tensor ("backward returned a
    gradient different than None at position N, but the corresponding forward input was not a
    Variable", torch/csrc/autograd/python_function.cpp), so each of them is one."""
    inputs: list[str] = []
    for param in [*forward.params.posonly_params, *forward.params.params][1:]:  # (after `ctx`)
        inputs.append(param.name.value)
    backward = next(
        (f for f in cls.body.body if isinstance(f, cst.FunctionDef) and f.name.value == "backward"), None
    )
    if backward is None or not inputs:
        return set()
    returns: list[cst.Return] = []
    assigned: dict[str, list[cst.BaseExpression | None]] = {}  # name -> what backward binds it to (None: unknown)
    stack: list[cst.CSTNode] = [backward.body]
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef)):
            continue  # a nested function's returns are not backward's
        if isinstance(node, cst.Return) and node.value is not None:
            returns.append(node)
        elif isinstance(node, cst.Assign):
            for target in node.targets:
                for name in names_in(target.target):
                    assigned.setdefault(name, []).append(node.value if isinstance(target.target, cst.Name) else None)
        elif isinstance(node, (cst.AugAssign, cst.AnnAssign, cst.For)):
            for name in names_in(node.target):
                assigned.setdefault(name, []).append(None)
        stack.extend(node.children)

    def none(grad: cst.BaseExpression) -> bool:
        """`None`, or a name backward only ever binds to `None` (`dsx = None` ... `return dx, dsx`)."""
        if not isinstance(grad, cst.Name):
            return False
        values = assigned.get(grad.value)
        return grad.value == "None" or bool(values) and all(_is_none(v) for v in values)  # type: ignore[arg-type]

    found: set[str] = set()
    for ret in returns:
        for position, grad in enumerate(_gradients(ret.value, len(inputs))):  # type: ignore[arg-type]
            if position < len(inputs) and not none(grad):
                found.add(inputs[position])
    return found


def _is_none(value: cst.BaseExpression | None) -> bool:
    return isinstance(value, cst.Name) and value.value == "None"


def _gradients(value: cst.BaseExpression, inputs: int) -> list[cst.BaseExpression]:
    """The gradients a `return` of `backward` gives, by position: a tuple's elements up to the first
    starred one (`(grad,) + (None,) * 3`: its leading tuple's), a lone value for a Function of one input."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        value = value.left
    if isinstance(value, (cst.Tuple, cst.List)):
        found = []
        for element in value.elements:
            if isinstance(element, cst.StarredElement):
                break
            found.append(element.value)
        return found
    if inputs == 1 and not isinstance(value, (cst.Name, cst.BinaryOperation)):
        return [value]  # (a name may hold the tuple of all gradients)
    return []


def _called_ctx_attributes(cls: cst.ClassDef) -> set[str]:
    """`ctx.<attr>` names the Function calls (`ctx.run_function(*inputs)`): callables, not tensors."""
    found: set[str] = set()
    stack: list[cst.CSTNode] = [cls.body]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and code(node.func.value) == "ctx":
            found.add(node.func.attr.value)
        stack.extend(node.children)
    return found


def _deleted_ctx_attributes(cls: cst.ClassDef) -> set[str]:
    """`ctx.<attr>` names the Function's `backward` deletes (`del ctx.y`): freed when backward runs."""
    found: set[str] = set()
    for func in cls.body.body:
        if not (isinstance(func, cst.FunctionDef) and func.name.value == "backward"):
            continue
        params = [*func.params.posonly_params, *func.params.params]
        ctx = params[0].name.value if params else "ctx"
        stack: list[cst.CSTNode] = [func.body]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Del):
                targets = node.target.elements if isinstance(node.target, cst.Tuple) else [node.target]
                for target in targets:
                    target = target.value if isinstance(target, cst.Element) else target
                    if isinstance(target, cst.Attribute) and code(target.value) == ctx:
                        found.add(target.attr.value)
            stack.extend(node.children)
    return found


def _stored_into(statement: cst.CSTNode, name: str) -> cst.BaseExpression | None:
    """The value `statement` puts into the container `name`: `name[k] = v`,
    `name.append(v)`, `name.update(k=v)`/`name.update({k: v})` (the dict itself)."""
    if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
        target = statement.targets[0].target
        if isinstance(target, cst.Subscript) and code(target.value) == name:
            return statement.value
    if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
        call = statement.value
        if method_name(call) in ("append", "extend", "insert", "add", "update", "setdefault") and code(call.func.value) == name:  # type: ignore[union-attr]
            return call.args[-1].value if call.args else None
    return None


def _returned_names(expr: cst.BaseExpression) -> set[str]:
    """Names `forward` returns as they are: `y` in `return y` or `return y, None`."""
    if isinstance(expr, cst.Name):
        return {expr.value}
    if isinstance(expr, (cst.Tuple, cst.List)):
        return {n for e in expr.elements for n in _returned_names(e.value)}
    return set()


def _pairs(target: cst.BaseExpression, value: cst.BaseExpression) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """`ctx.q, ctx.k = q, k` -> [(ctx.q, q), (ctx.k, k)]; otherwise [(target, value)]."""
    if (
        isinstance(target, (cst.Tuple, cst.List))
        and isinstance(value, (cst.Tuple, cst.List))
        and len(target.elements) == len(value.elements)
    ):
        return [(t.value, v.value) for t, v in zip(target.elements, value.elements)]
    return [(target, value)]

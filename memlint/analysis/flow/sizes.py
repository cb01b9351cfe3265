"""What a kept value weighs: the device memory one store adds per iteration, where the code shows it.

A finding says how much it keeps only when the file states it: a tensor made
with literal (or constant) sizes and dtype (`torch.randn(256, 64)`,
`torch.randint(0, 5, (n,))` with `n = 65536`), carried through a loader
written as a list of such batches, moves and casts (`.to(device)`,
`.half()`), an `nn.Sequential` of `Linear` layers and element-wise
activations, `argmax`, and reductions and losses, which are 0-dim. Anything
else is unknown, and the message names what is kept without a number.

Sizes are what the CUDA caching allocator hands out, as `memlint verify`
counts them: a block is a multiple of 512 bytes, at least 512
(`kMinBlockSize` and `round_size` of c10/cuda/CUDACachingAllocator.cpp), so
a 0-dim loss kept after backward is 512 bytes of device memory per
iteration: `memlint verify` measures +0.000488 MiB/iter on the canonical
case. The graph skeleton such a loss keeps is host memory, which no tensor
storage shows; it has no number here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.library import LOSS_MODULES
from memlint.analysis.syntax.expressions import call_arg, keyword_arg, literal_parts, method_name, target_names
from memlint.verify.stats import MIB, THRESHOLD_MIB

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext
    from memlint.analysis.regions.loops import Store
    from memlint.analysis.syntax.scopes import Scope

# Bytes per element, by the name torch gives the dtype (`torch.float` is float32, `torch.int` int32).
_ITEMSIZE = {
    "float32": 4, "float": 4, "float16": 2, "half": 2, "bfloat16": 2, "float64": 8, "double": 8,
    "int64": 8, "long": 8, "int32": 4, "int": 4, "int16": 2, "short": 2, "int8": 1, "uint8": 1, "bool": 1,
    "complex64": 8, "complex128": 16,
}
_CANONICAL = {"float": "float32", "half": "float16", "double": "float64", "long": "int64", "int": "int32", "short": "int16"}
_FLOAT_FACTORIES = {"randn", "rand", "zeros", "ones", "empty"}
# Methods that cast to a dtype by their name (`x.half()`).
_CASTS = {"float", "half", "double", "bfloat16", "long", "int", "short", "bool"}
# Methods and torch functions whose result has the shape and dtype of their (first) input.
_SAME = {
    "detach", "clone", "contiguous", "cuda", "requires_grad_", "softmax", "log_softmax", "sigmoid", "relu",
    "tanh", "exp", "log", "abs", "neg", "square", "sqrt", "gelu", "silu",
}
_SCALAR_REDUCTIONS = {"sum", "mean", "norm", "std", "var", "prod", "logsumexp"}
# Layers of an `nn.Sequential` whose output has their input's shape.
_ELEMENTWISE_LAYERS = {
    "ReLU", "GELU", "SiLU", "Tanh", "Sigmoid", "LeakyReLU", "ELU", "Dropout", "Identity", "Softmax", "LogSoftmax",
    "Softplus", "Mish", "Hardswish", "ReLU6", "PReLU", "SELU", "CELU",
}
_MODULE_PLACEMENT = {"to", "cuda", "eval", "train", "requires_grad_"}
_ELEMENTWISE_OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide)
# At or beyond this much per iteration, `memlint verify` confirms the growth: the finding is an error.
LARGE_BYTES = int(THRESHOLD_MIB * MIB)


@dataclass(frozen=True)
class Tensor:
    """A tensor of known sizes and dtype (its canonical torch name)."""

    dims: tuple[int, ...]
    dtype: str

    @property
    def nbytes(self) -> int:
        """The device memory it takes: its bytes in whole 512-byte allocator blocks."""
        return allocated(math.prod(self.dims) * _ITEMSIZE[self.dtype])

    def describe(self) -> str:
        if not self.dims:
            return "a 0-dim tensor"
        if len(self.dims) == 1:
            return f"a {self.dims[0]}-element {self.dtype} tensor"
        return f"a {'×'.join(map(str, self.dims))} {self.dtype} tensor"


@dataclass(frozen=True)
class Kept:
    """What one store adds on the device each time it runs."""

    tensors: tuple[Tensor, ...]

    @property
    def nbytes(self) -> int:
        return sum(t.nbytes for t in self.tensors)

    @property
    def large(self) -> bool:
        return self.nbytes >= LARGE_BYTES

    def describe(self) -> str:
        return " and ".join(t.describe() for t in self.tensors)

    def amount(self) -> str:
        """`about 0.5 KiB`, `about 1.0 MiB`, `about 512 KiB`."""
        return f"about {human(self.nbytes)}"


def allocated(nbytes: int) -> int:
    """The CUDA caching allocator's block for a request: a multiple of 512 bytes, at least 512."""
    return max(512, math.ceil(nbytes / 512) * 512)


def human(nbytes: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20)):
        if nbytes >= size * 0.95:
            return f"{_figures(nbytes / size)} {unit}"
    return f"{_figures(nbytes / 1024)} KiB"


def _figures(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.1f}"


class Sizes:
    def __init__(self, model: "FileContext") -> None:
        self.model = model
        self._alone: dict[int, set[str]] = {}  # id(scope) -> names backwarded alone there

    def kept(self, store: "Store") -> Kept | None:
        """The tensors one run of `store` adds (`losses.append(loss)`: `loss`; `t = torch.cat([t, v])`:
        `v`), when every one of them has known sizes; None for an accumulator (`total += loss`
        replaces a tensor of fixed size) or a value kept through a callee."""
        if store.kind not in ("append", "subscript", "concat") or store.keep is not None:
            return None
        statement = store.statement
        if isinstance(statement, cst.Expr) and isinstance(statement.value, cst.Call):
            if method_name(statement.value) not in ("append", "appendleft", "add", "put", "insert"):
                return None  # `extend`: how many tensors it adds is not written here
        parts = literal_parts(store.value)
        found = [self.tensor(p, statement) for p in parts]
        if not found or any(t is None for t in found):
            return None
        return Kept(tuple(t for t in found if t is not None))

    def tensor(self, expr: cst.BaseExpression, at: cst.CSTNode, guard: frozenset = frozenset()) -> Tensor | None:
        """The sizes and dtype of the tensor `expr` evaluates to at `at`, when the code states them."""
        if isinstance(expr, cst.Name):
            return self._name(expr.value, self.model.scope_of(at), at, guard)
        if isinstance(expr, cst.Call):
            return self._call(expr, at, guard)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, _ELEMENTWISE_OPERATORS):
            return self._elementwise(expr, at, guard)
        return None

    def _elementwise(self, expr: cst.BinaryOperation, at: cst.CSTNode, guard: frozenset) -> Tensor | None:
        """`loss * 2`, `a + b` of one shape and dtype; not where a number could change the dtype
        (`labels / 2` is float, `labels * 0.5` too)."""
        sides = [expr.left, expr.right]
        numbers = [s for s in sides if isinstance(s, (cst.Integer, cst.Float))]
        found = set()
        for side in sides:
            if side in numbers:
                continue
            tensor = self.tensor(side, at, guard)
            if tensor is None:
                return None  # the other side is not asked: round a loop's back edge, each side asked again doubles the work
            found.add(tensor)
        if len(found) != 1:
            return None
        (tensor,) = found
        integer = tensor.dtype.startswith(("int", "uint")) or tensor.dtype == "bool"
        if integer and (isinstance(expr.operator, cst.Divide) or any(isinstance(n, cst.Float) for n in numbers)):
            return None
        return tensor

    # -- names: one value wherever they reach --------------------------------------
    def _name(self, name: str, scope: "Scope", at: cst.CSTNode, guard: frozenset) -> Tensor | None:
        key = (id(scope), name, id(at))  # `x = x.to(device)`: the same name, asked again where it was bound
        if key in guard:
            return None
        guard = guard | {key}
        bindings = self.model.provenance.reaching_bindings(scope, name, at)
        if not bindings:
            return None
        if self.backwarded_alone(name, scope):
            return Tensor((), "float32")
        tree = self.model.tree
        loops = [b.node for b in bindings if isinstance(b.node, cst.For)]
        found = set()
        for binding in bindings:
            if binding.node not in loops and tree.contains(binding.node, at) and any(tree.contains(loop, binding.node) for loop in loops):
                continue  # `x = x.to(device)` under `for x, y in loader`: each iteration's `x` comes from the loop
            if isinstance(binding.node, cst.For):
                found.add(self._loop_element(binding.node, name, guard))
                continue
            value, index = unpacked(binding)
            if value is None or index is not None:
                return None
            found.add(self.tensor(value, binding.node, guard))
        return found.pop() if len(found) == 1 else None

    def backwarded_alone(self, name: str, scope: "Scope") -> bool:
        """`loss.backward()` with no gradient argument (or `accelerator.backward(loss)`,
        `scaler.scale(loss).backward()`, `(loss / n).backward()`): torch raises unless `loss`
        has one element, so it is one 512-byte block (its dtype is not shown; it does not matter)."""
        if name not in self._backwarded(scope):
            return False
        values = [b.value for b in self.model.bindings(scope, name)]
        return bool(values) and all(v is not None and not isinstance(v, (cst.Tuple, cst.List)) for v in values)

    def _backwarded(self, scope: "Scope") -> set[str]:
        known = self._alone.get(id(scope))
        if known is None:
            known = self._alone[id(scope)] = set()
            provenance = self.model.provenance
            for call, exprs in provenance.backward_calls(scope):
                if self.model.scope_of(call) is not scope or len(exprs) != 1 or keyword_arg(call, "gradient") or keyword_arg(call, "grad_tensors"):
                    continue
                receiver = isinstance(call.func, cst.Attribute) and exprs[0] is call.func.value
                if sum(a.keyword is None for a in call.args) > (0 if receiver else 1):
                    continue  # a gradient passed by position
                expr = exprs[0]
                if isinstance(expr, cst.Call) and method_name(expr) == "scale" and len(expr.args) == 1:
                    expr = expr.args[0].value  # `scaler.scale(loss)`: a number times the loss
                if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, cst.Divide):
                    expr = expr.left  # `(loss / accumulation_steps).backward()`
                if isinstance(expr, cst.Name):
                    known.add(expr.value)
        return known

    def _loop_element(self, loop: cst.For, name: str, guard: frozenset) -> Tensor | None:
        """`for x, y in loader` where `loader` is a list of `(x, y)` batches written out."""
        target, iterable = loop.target, loop.iter
        if isinstance(iterable, cst.Call) and self.model.imports.resolve(iterable.func) == "enumerate" and iterable.args:
            if not (isinstance(target, (cst.Tuple, cst.List)) and len(target.elements) == 2):
                return None
            target, iterable = target.elements[1].value, iterable.args[0].value
        items = self._items(iterable, loop)
        if not items:
            return None
        found = {self._matched(target, item, name, guard) for item in items}
        return found.pop() if len(found) == 1 else None

    def _items(self, iterable: cst.BaseExpression, at: cst.CSTNode) -> list[cst.BaseExpression]:
        """The element expressions of a list written out (`[a, b]`, `[(x, y) for _ in range(n)]`)."""
        if isinstance(iterable, cst.Name):
            bindings = self.model.provenance.reaching_bindings(self.model.scope_of(at), iterable.value, at)
            if len(bindings) != 1 or bindings[0].value is None or unpacked(bindings[0])[1] is not None:
                return []
            return self._items(bindings[0].value, bindings[0].node)
        if isinstance(iterable, (cst.ListComp, cst.GeneratorExp)):
            return [iterable.elt]
        if isinstance(iterable, (cst.List, cst.Tuple)) and iterable.elements:
            if any(isinstance(e, cst.StarredElement) for e in iterable.elements):
                return []
            return [e.value for e in iterable.elements]
        return []

    def _matched(self, target: cst.BaseExpression, item: cst.BaseExpression, name: str, guard: frozenset) -> Tensor | None:
        if isinstance(target, cst.Name):
            return self.tensor(item, item, guard) if target.value == name else None
        if isinstance(target, (cst.Tuple, cst.List)) and isinstance(item, (cst.Tuple, cst.List)):
            if len(target.elements) != len(item.elements):
                return None
            for sub, element in zip(target.elements, item.elements):
                if name in target_names(sub.value):
                    return self._matched(sub.value, element.value, name, guard)
        return None

    # -- calls -----------------------------------------------------------------------
    def _call(self, call: cst.Call, at: cst.CSTNode, guard: frozenset) -> Tensor | None:
        resolved = self.model.imports.resolve(call.func) or ""
        method = method_name(call)
        if resolved.startswith("torch.") and resolved.count(".") == 1:
            return self._torch_function(resolved[len("torch."):], call, at, guard)
        if resolved.startswith("torch.nn.functional."):
            if self.model.provenance.is_loss_call(call) and _reduces(call):
                return Tensor((), "float32")
            return None
        if method is not None and isinstance(call.func, cst.Attribute):
            receiver = call.func.value
            if method in _SAME or (method == "to" and not call.args and not call.keywords):
                return self.tensor(receiver, at, guard)
            if method == "to":
                return self._moved(call, self.tensor(receiver, at, guard))
            if method in _CASTS and not call.args:
                inner = self.tensor(receiver, at, guard)
                return Tensor(inner.dims, _CANONICAL.get(method, method)) if inner else None
            if method in _SCALAR_REDUCTIONS and not call.args:
                return _scalar(self.tensor(receiver, at, guard))
            if method in ("argmax", "argmin"):
                return _arg_reduced(self.tensor(receiver, at, guard), call, 0)
        if self._criterion_reduces(call, at):
            return Tensor((), "float32")
        if self.model.provenance.is_module_call(call) and len(call.args) == 1 and not call.args[0].keyword:
            return self._forward(call, at, guard)
        return None

    def _torch_function(self, name: str, call: cst.Call, at: cst.CSTNode, guard: frozenset) -> Tensor | None:
        if name in _FLOAT_FACTORIES or name in ("randint", "full"):
            return self._factory(name, call, at)
        if name in ("argmax", "argmin") and call.args:
            return _arg_reduced(self.tensor(call.args[0].value, at, guard), call, 1)
        if name in _SCALAR_REDUCTIONS and len(call.args) == 1:
            return _scalar(self.tensor(call.args[0].value, at, guard))
        if name in _SAME and call.args:
            return self.tensor(call.args[0].value, at, guard)
        return None

    def _factory(self, name: str, call: cst.Call, at: cst.CSTNode) -> Tensor | None:
        """`torch.randn(8, 16)`, `torch.zeros((n, d), dtype=torch.half)`, `torch.randint(0, 4, (8,))`."""
        positional = [a.value for a in call.args if a.keyword is None]
        size = keyword_arg(call, "size")
        if size is not None:
            shape = size.value
        elif name == "randint":
            shape = positional[-1] if positional else None
        elif name == "full":
            shape = positional[0] if positional else None
        else:
            shape = positional[0] if len(positional) == 1 and isinstance(positional[0], (cst.Tuple, cst.List)) else None
            if shape is None:
                dims = [self._int(d, at) for d in positional]
                return self._typed(name, call, tuple(dims)) if dims and None not in dims else None  # type: ignore[arg-type]
        if not isinstance(shape, (cst.Tuple, cst.List)):
            return None
        dims = [self._int(e.value, at) for e in shape.elements]
        return self._typed(name, call, tuple(dims)) if None not in dims else None  # type: ignore[arg-type]

    def _typed(self, name: str, call: cst.Call, dims: tuple[int, ...]) -> Tensor | None:
        dtype = keyword_arg(call, "dtype")
        if dtype is not None:
            named = self._dtype(dtype.value)
            return Tensor(dims, named) if named else None
        if name == "randint":
            return Tensor(dims, "int64")
        if name == "full":  # the fill value's type decides: `torch.full((n,), 0)` is int64
            fill = call_arg(call, 1, "fill_value")
            kind = type(fill.value) if fill is not None else None
            return Tensor(dims, "int64") if kind is cst.Integer else Tensor(dims, "float32") if kind is cst.Float else None
        return Tensor(dims, "float32")

    def _dtype(self, expr: cst.BaseExpression) -> str | None:
        resolved = self.model.imports.resolve(expr) or ""
        short = resolved[len("torch."):] if resolved.startswith("torch.") else ""
        return _CANONICAL.get(short, short) if short in _ITEMSIZE else None

    def _moved(self, call: cst.Call, inner: Tensor | None) -> Tensor | None:
        """`x.to(device)` keeps the dtype; `x.to(torch.half)` or `x.to(device, dtype=...)` casts."""
        if inner is None:
            return None
        dtype = keyword_arg(call, "dtype")
        for arg in ([dtype] if dtype is not None else []) + [a for a in call.args if a.keyword is None]:
            named = self._dtype(arg.value)
            if named is not None:
                return Tensor(inner.dims, named)
        return inner

    def _int(self, expr: cst.BaseExpression, at: cst.CSTNode) -> int | None:
        """An integer literal, or a name bound to one wherever it reaches (`batch_size = 256`)."""
        if isinstance(expr, cst.Integer):
            return int(expr.evaluated_value)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Multiply, cst.Add, cst.Subtract)):
            left, right = self._int(expr.left, at), self._int(expr.right, at)
            if left is None or right is None:
                return None
            return left * right if isinstance(expr.operator, cst.Multiply) else left + right if isinstance(expr.operator, cst.Add) else left - right
        if isinstance(expr, cst.Name):
            model = self.model
            scope = model.scope_of(at)
            if isinstance(scope, cst.FunctionDef) and expr.value in model.params(scope):
                return None  # `def f(batch_size)`: whatever the caller passes
            bindings = model.provenance.reaching_bindings(scope, expr.value, at) or model.bindings(model.module, expr.value)
            values = {int(b.value.evaluated_value) if isinstance(b.value, cst.Integer) else None for b in bindings}
            return values.pop() if len(values) == 1 else None
        return None

    def _criterion_reduces(self, call: cst.Call, at: cst.CSTNode) -> bool:
        """`criterion(out, y)` where `criterion = nn.CrossEntropyLoss()` (its default reduction): a 0-dim loss."""
        if not isinstance(call.func, cst.Name):
            return False
        made = self._constructor(call.func, at)
        return made is not None and (self.model.imports.resolve(made.func) or "") in LOSS_MODULES and _reduces(made)

    def _constructor(self, expr: cst.Name, at: cst.CSTNode) -> cst.Call | None:
        """The one call a module name is bound to, through `.to(device)`, `.cuda()`, `.eval()`."""
        model = self.model
        bindings = model.provenance.reaching_bindings(model.scope_of(at), expr.value, at)
        if len(bindings) != 1 or bindings[0].value is None or unpacked(bindings[0])[1] is not None:
            return None
        value = bindings[0].value
        while isinstance(value, cst.Call) and method_name(value) in _MODULE_PLACEMENT and isinstance(value.func, cst.Attribute):
            value = value.func.value
        return value if isinstance(value, cst.Call) else None

    def _forward(self, call: cst.Call, at: cst.CSTNode, guard: frozenset) -> Tensor | None:
        """`model(x)` of an `nn.Sequential` of `Linear` layers and element-wise activations (or one `Linear`)."""
        if not isinstance(call.func, cst.Name):
            return None
        made = self._constructor(call.func, at)
        if made is None:
            return None
        resolved = self.model.imports.resolve(made.func)
        layers = [a.value for a in made.args] if resolved == "torch.nn.Sequential" else [made]
        current = self.tensor(call.args[0].value, at, guard)
        for layer in layers:
            if current is None or not current.dims or not isinstance(layer, cst.Call):
                return None
            kind = (self.model.imports.resolve(layer.func) or "").removeprefix("torch.nn.")
            if kind == "Linear":
                ins = call_arg(layer, 0, "in_features")
                outs = call_arg(layer, 1, "out_features")
                if ins is None or outs is None or self._int(ins.value, layer) != current.dims[-1]:
                    return None
                width = self._int(outs.value, layer)
                current = Tensor(current.dims[:-1] + (width,), current.dtype) if width is not None else None
            elif kind not in _ELEMENTWISE_LAYERS:
                return None
        return current


def _reduces(made: cst.Call) -> bool:
    """A loss module or function called without `reduction=` (mean) or with "mean"/"sum": 0-dim."""
    reduction = keyword_arg(made, "reduction")
    return reduction is None or (isinstance(reduction.value, cst.SimpleString) and reduction.value.evaluated_value in ("mean", "sum"))


def _scalar(inner: Tensor | None) -> Tensor:
    """A full reduction: 0-dim, one 512-byte block whatever its dtype (float32 where the input's is not known)."""
    return Tensor((), inner.dtype if inner is not None else "float32")


def _arg_reduced(inner: Tensor | None, call: cst.Call, position: int) -> Tensor | None:
    """`x.argmax(dim=1)`: that dimension gone, int64; without a dim, a 0-dim index."""
    if inner is None or keyword_arg(call, "keepdim") is not None:
        return None
    dim = call_arg(call, position, "dim")
    if dim is None:
        return Tensor((), "int64")
    value = dim.value
    index = -int(value.expression.evaluated_value) if isinstance(value, cst.UnaryOperation) and isinstance(value.expression, cst.Integer) else (
        int(value.evaluated_value) if isinstance(value, cst.Integer) else None
    )
    if index is None or not -len(inner.dims) <= index < len(inner.dims):
        return None
    dims = list(inner.dims)
    del dims[index]
    return Tensor(tuple(dims), "int64")

from __future__ import annotations

import re

import libcst as cst

from memlint.analysis.syntax.expressions import call_arg
from memlint.analysis.flow.object_kinds import MODULE, class_holds_modules, returns_tensor
from memlint.models import Applicability, Severity
from memlint.rules.base import Rule

CACHES = {"functools.lru_cache", "functools.cache"}
# Keys whose values come from a small, fixed set: a cache keyed only by them stays small.
_FEW_VALUES = re.compile(r"^(str|bool|torch\.dtype|torch\.device|typing\.Literal|Literal)$")


class CachedTensorFunction(Rule):
    code = "ML012"
    name = "cached-tensor-function"
    severity = Severity.WARNING
    summary = "`functools.lru_cache`/`cache` keeps modules or tensors alive"
    fix_applicability = Applicability.DISPLAY_ONLY
    needles = (("lru_cache", "functools"),)
    what = """
Checks for `functools.lru_cache` and `functools.cache` on:

* a method of a class that holds device memory (an `nn.Module`, a
  `LightningModule`, a `PreTrainedModel`, or a class that stores a model or a
  tensor on `self`): the cache keeps `self` as part of every key;
* a function or method that takes a module or a tensor: the cache keeps each
  argument. A parameter is one where its annotation says so, where the
  function uses it as a module (`spec.parameters()`, also in a function it
  hands it to), or where a call in the project hands it one (a module's
  method handing `self`); a call that hands only strings or numbers shows it
  is neither. Where nothing shows what it is handed and only its name says
  so (`model`, `layer`, `hidden_states`, ...), the finding says what it
  assumed and is shown with `--preview`;
* a function with an unbounded cache (`@cache`, `lru_cache(maxsize=None)`)
  that returns tensors and is keyed by sizes or shapes: the cache keeps one
  result per distinct shape.

Pure functions of ints, strings and shapes that return no tensor, bounded
caches (`lru_cache(maxsize=32)`) keyed by sizes that return tensors (index
tensors, masks), caches on functions nested in another function (they die
with it) and `functools.cached_property` are not reported.
"""
    why = """
The cache is a dictionary owned by the function, which lives as long as the
process. Every argument tuple it has seen is a key, and every result a value:
a cached method keeps each `self` it was called on, with all its parameters
and buffers, after `del model`; a tensor argument hashes by identity, so each
new batch adds an entry that is never hit again. ParlAI PR 2487: an
`lru_cache(maxsize=1)` on a world's method kept the world, its agent and the
model alive, and loading the validation model then ran out of GPU memory
(also reported in torchtune issue 904; ruff's B019 flags caches on methods in
general).

Severity warning: what stays alive is bounded by the cache size unless the
cache is unbounded, and it shows when models are rebuilt or deleted (sweeps,
evaluating several checkpoints, loading a second model), not within one
training run.
"""
    example = """
class Detector(nn.Module):
    @functools.lru_cache(maxsize=32)
    def anchors(self, height, width):
        return make_anchors(height, width, device=self.head.weight.device)
"""
    use_instead = """
class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self._anchors = {}  # dies with the module

    def anchors(self, height, width):
        key = (height, width)
        if key not in self._anchors:
            self._anchors[key] = make_anchors(height, width, device=self.head.weight.device)
        return self._anchors[key]
"""

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        model = self.model
        found = self._cache_decorator(node)
        if found is None:
            return
        decorator, kind, bounded = found
        if isinstance(model.scope_of(node), cst.FunctionDef):
            return  # a nested function: its cache dies with the function object
        names = {model.imports.resolve(d.decorator) for d in node.decorators}
        cls = model.enclosing_class(node)
        is_method = cls is not None and "staticmethod" not in names
        params = [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]
        if is_method and params:
            params = params[1:]  # self / cls
        lifetime = "until it is evicted" if bounded else "for the life of the process"
        where = f"`@{kind}` on `{node.name.value}`"
        hint = (
            "cache on the instance (a dict attribute, or `functools.cached_property` for a method without "
            "arguments) so the cache dies with it"
        )

        if is_method and "classmethod" not in names:
            holds = class_holds_modules(model, cls)  # type: ignore[arg-type]
            if holds is not None:
                message = (
                    f"{where} keeps `self` in every key, so each `{cls.name.value}` it was called on "  # type: ignore[union-attr]
                    f"stays alive with its weights {lifetime}"
                )
                self.report(decorator, message, f"{hint} ({holds}); ParlAI PR 2487 ran out of GPU memory this way")
                return
            if not params and returns_tensor(model, node):
                # keyed by `self` alone: one entry per instance, and the value is a tensor the
                # instance computed, so the cache pins both (botorch PR 1650)
                message = (
                    f"{where} keys on `self` alone, so each `{cls.name.value}` it was called on stays alive "  # type: ignore[union-attr]
                    f"with the tensor it returned {lifetime}"
                )
                self.report(
                    decorator,
                    message,
                    "use `functools.cached_property`: it stores the value on the instance, which `del` then frees",
                )
                return
        for param in params:
            what, assumed = model.handed.parameter_kind(node, param)
            if what is None:
                continue
            name = param.name.value
            if what == MODULE:
                held = f"every module passed as `{name}` (with its weights)"
                extra = ""
            else:
                held = f"every tensor passed as `{name}`"
                extra = "; tensors hash by identity, so every new tensor adds an entry that is never hit again"
            message = f"{where} keeps {held} alive as a key {lifetime}"
            hint = f"key the cache by sizes or names, not by modules or tensors, or keep the results on the object{extra}"
            if assumed is None:
                self.report(decorator, message, hint)
                return
            # shown with `--preview` only, unless a call in another file of the project hands it a module
            handed = model.handed.exported(node, name) if what == MODULE else []
            self.report(decorator, message, f"{hint} (assumed: {assumed})", assumptions=[assumed], handed=handed)
            return
        if not bounded and returns_tensor(model, node) and self._keyed_by_sizes(params):
            message = f"{where} keeps every tensor it returns, one per distinct argument tuple, for the life of the process"
            self.report(decorator, message, "bound it (`lru_cache(maxsize=N)`) or build the tensor where it is used")

    def _cache_decorator(self, node: cst.FunctionDef) -> tuple[cst.Decorator, str, bool] | None:
        """The cache decorator, the name to show, and whether its size is bounded."""
        for decorator in node.decorators:
            expr = decorator.decorator
            call = expr if isinstance(expr, cst.Call) else None
            name = self.model.imports.resolve(call.func if call else expr)
            if name not in CACHES:
                continue
            short = name.rsplit(".", 1)[1]
            if short == "cache":
                return decorator, "cache", False
            if call is None or not call.args:
                return decorator, "lru_cache", True  # maxsize=128
            arg = call_arg(call, 0, "maxsize")
            if arg is None:
                return decorator, "lru_cache", True
            bounded = not (isinstance(arg.value, cst.Name) and arg.value.value == "None")
            return decorator, "lru_cache", bounded
        return None

    def _keyed_by_sizes(self, params: list[cst.Param]) -> bool:
        """Can the keys take many values (sizes, shapes, unknown types), rather
        than a few (`str`, `bool`, `dtype`, `device`)?"""
        if not params:
            return False
        for param in params:
            annotation = param.annotation.annotation if param.annotation is not None else None
            if annotation is None:
                return True
            text = self.model.imports.resolve(annotation) if isinstance(annotation, (cst.Name, cst.Attribute)) else None
            if not (text and _FEW_VALUES.match(text)) and not self._few_values(annotation):
                return True
        return False

    def _few_values(self, annotation: cst.BaseExpression) -> bool:
        """`str | None`, `Optional[torch.dtype]`, `Literal[...]`."""
        if isinstance(annotation, cst.BinaryOperation):
            return self._few_values(annotation.left) and self._few_values(annotation.right)
        if isinstance(annotation, cst.Name) and annotation.value == "None":
            return True
        if isinstance(annotation, cst.Subscript):
            head = self.model.imports.resolve(annotation.value) or ""
            if head.endswith("Literal"):
                return True
            if head.endswith("Optional"):
                return all(
                    isinstance(e.slice, cst.Index) and self._few_values(e.slice.value) for e in annotation.slice
                )
            return False
        if isinstance(annotation, (cst.Name, cst.Attribute)):
            return bool(_FEW_VALUES.match(self.model.imports.resolve(annotation) or ""))
        return False

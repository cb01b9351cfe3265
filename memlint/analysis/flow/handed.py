"""What callers hand a function's parameters: a module, something that is not one, or what nothing shows.

`def evaluate(model, loader): ... model(x)` runs a model only if its callers hand it one: the
parameter's name says nothing the code shows. A function's callers in this file are read here
(`passed`: for each call, the grad mode it is made in and what it hands the parameter); callers in
other files are the project's to say (`passes` is what this file's calls of other files' functions
hand them, exported in the file's summary). A parameter the function keeps on `self` in its
`__init__` (`self.model = model`) is handed by the calls that construct its class.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterator

import libcst as cst

from memlint.analysis.library import MODULE_SELF_RETURNING
from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.flow.object_kinds import MODULE, annotation_kind, named_kind, param_kind
from memlint.analysis.flow.values import NO, Value, join
from memlint.analysis.syntax.calls import parameter_names
from memlint.analysis.regions.grad import Grad
from memlint.analysis.syntax.expressions import method_name
from memlint.analysis.syntax.imports import dotted

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext
    from memlint.analysis.flow.module_facts import ModuleFacts
    from memlint.analysis.flow.provenance import Provenance

# What a call hands a parameter.
HANDS_MODULE = "module"  # a module, as the caller's file shows it (constructed, `.eval()`-ed, ...)
HANDS_OTHER = "other"  # surely not a module: a literal, a function, an object of a class that is not one
HANDS_UNKNOWN = "unknown"  # nothing in sight says
_LITERALS = frozenset({
    cst.Integer, cst.Float, cst.SimpleString, cst.ConcatenatedString, cst.FormattedString, cst.List, cst.Dict,
    cst.Tuple, cst.Set, cst.Lambda, cst.ListComp, cst.DictComp, cst.SetComp, cst.GeneratorExp,
})  # exact types: `isinstance` against LibCST's classes goes through ABCMeta
_DEPTH = 2  # callers of callers followed, for a parameter handed on (`main(model)` -> `evaluate(model)`)
# names, returns and parameters followed back to what makes a handed value: a parameter handed on
# through three functions (a call and a name each) to the name bound where it is made
_VALUE_STEPS = 8


class Handed:
    def __init__(self, model: "FileContext", module_facts: "ModuleFacts", provenance: "Provenance") -> None:
        self.model = model
        self.module_facts = module_facts
        self.provenance = provenance
        self._parameter_values: dict[int, list[cst.BaseExpression]] = {}  # asked for every call of a parameter
        self._constructor_callables: dict[int, tuple[list[cst.FunctionDef], list[Value]] | None] = {}

    # -- a run whose being a model rests on a parameter's name ---------------------------------
    def named_parameter(self, call: cst.Call) -> tuple[cst.FunctionDef, str] | None:
        """Where `call` runs a value that came in by a parameter (`model(x)`, `model.forward(x)`,
        `self.model(x)` after `self.model = model` in `__init__`) and nothing in this file but that
        name says it is a module (no `.eval()`, `.parameters()`, annotation or constructor): the
        function whose parameter it is, and the parameter's name; None otherwise."""
        model = self.model
        if self.module_facts.runs_module(call):
            return None
        chain = (dotted(call.func) or "").split(".")
        scope = model.scope_of(call)
        if not isinstance(scope, cst.FunctionDef) or not chain[0]:
            return None
        if chain[0] in ("self", "cls"):
            return self._kept_from_init(scope, chain[1], call) if chain[0] == "self" and len(chain) > 1 else None
        if self._overrides_imported(scope):
            return None  # its callers are the base class's code, in a file this analysis does not follow
        if self._plain_parameter(scope, chain[0]) and not self.shown_module(scope, chain[0], call):
            return scope, chain[0]
        return None

    def _overrides_imported(self, method: cst.FunctionDef) -> bool:
        """Is `method` one of a class derived from an imported class other than torch's (deepchecks'
        `SegmentationData.infer_on_batch(self, batch, model, device)`, called by the base's own code with
        the model it holds)? What those callers hand it is out of this file's sight, not absent."""
        model = self.model
        cls = model.enclosing_class(method)
        if cls is None or method.name.value == "__init__":
            return False
        for base in cls.bases:
            root = (dotted(base.value) or "").partition(".")[0] if base.keyword is None else ""
            if root and (root in model.imports.aliases or root in model.imports.relative):
                if not (model.imports.resolve(base.value) or "").startswith("torch."):
                    return True
        return False

    def shown_module(self, func: cst.FunctionDef, name: str, at: cst.CSTNode) -> bool:
        """Does the file show that `func`'s parameter `name` is a module: here (`model.eval()`), or in a
        function of this file that `func` hands it to (`with eval_mode(model):` where `eval_mode` calls
        `net.eval()` on its parameter)?"""
        model = self.model
        if self.module_facts.is_module(cst.Name(name), at):
            return True
        for call in model.tree.descendants(func.body, cst.Call):
            if not any(type(a.value) is cst.Name and a.value.value == name for a in call.args):
                continue
            for callee in model.local_callees(call):
                body = callee.body.body if type(callee.body) is cst.IndentedBlock else ()
                for param in parameter_names(callee):
                    arg = model.summaries.argument_for(call, callee, param)
                    if type(arg) is cst.Name and arg.value == name and body:
                        if self.module_facts.is_module(cst.Name(param), body[0]):
                            return True
        return False

    def _plain_parameter(self, func: cst.FunctionDef, name: str) -> bool:
        """Is `name` a parameter of `func` with no annotation, never bound again (but to itself placed:
        `model = model.to(device)`)?"""
        params = [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]
        param = next((p for p in params if p.name.value == name), None)
        if param is None or param.annotation is not None:
            return False
        return all(_placed_name(b.value) == name for b in self.model.bindings(func, name))

    def _kept_from_init(self, method: cst.FunctionDef, attr: str, at: cst.Call) -> tuple[cst.FunctionDef, str] | None:
        """`self.<attr>` set only from a plain parameter of its class's `__init__` (`self.model = model`),
        and shown nowhere in the class to be a module: that `__init__` and parameter."""
        if self.provenance.in_module_class(method):
            return None
        if self.module_facts.is_module(cst.Attribute(cst.Name("self"), cst.Name(attr)), at):
            return None
        found = self._init_parameter(method, attr, at)
        if found is None or not self._plain_parameter(*found):
            return None
        init, param = found
        kept = self.provenance.self_attribute_values(attr, at)[0]
        if self.shown_module(init, param, kept):  # `optimizer = Adam(model.parameters())` there
            return None
        return found

    def _init_parameter(self, method: cst.FunctionDef, attr: str, at: cst.CSTNode) -> tuple[cst.FunctionDef, str] | None:
        """`self.<attr>`, read in `method`, set only from a parameter of its class's `__init__` (`self._compute =
        compute`), a parameter never bound again there: that `__init__` and parameter."""
        model = self.model
        cls = model.enclosing_class(method)
        if cls is None:
            return None
        init = next((s for s in cls.body.body if isinstance(s, cst.FunctionDef) and s.name.value == "__init__"), None)
        values = self.provenance.self_attribute_values(attr, at)
        if init is None or len(values) != 1 or type(values[0]) is not cst.Name or not model.tree.contains(init, values[0]):
            return None
        param = values[0].value
        if param not in parameter_names(init) or any(_placed_name(b.value) != param for b in model.bindings(init, param)):
            return None
        return init, param

    def constructor_callables(self, call: cst.Call) -> tuple[list[cst.FunctionDef], list[Value]] | None:
        """`self._compute(batch)`, where `self._compute` is set only from a parameter of its class's `__init__`
        and every construction of the class hands that parameter a function or method uncalled that does not
        differentiate (`RunningStat(self.batch_energy)`): those of this file, and what calling those of other
        files returns, by the project's facts (their summaries' `handed_callables`); None where a construction
        hands anything else (a training step, a lambda, a parameter of its own), or none is in sight."""
        func = call.func
        if not (type(func) is cst.Attribute and type(func.value) is cst.Name and func.value.value == "self"):
            return None
        key = id(call)
        if key not in self._constructor_callables:  # asked for each element of what the call returns
            self._constructor_callables[key] = self._handed_to_constructions(call, func)
        return self._constructor_callables[key]

    def _handed_to_constructions(self, call: cst.Call, func: cst.Attribute) -> tuple[list[cst.FunctionDef], list[Value]] | None:
        model = self.model
        if self.module_facts.is_module(func, call):
            return None  # `self.model(x)`, shown to be a module
        method = model.scope_of(call)
        cls = model.enclosing_class(method) if isinstance(method, cst.FunctionDef) else None
        found = self._init_parameter(method, func.attr.value, call) if cls is not None else None  # type: ignore[arg-type]
        if found is None or model.tree.parent_of(cls) is not model.module:
            return None
        init, param = found
        local: list[cst.FunctionDef] = []
        for site in self._constructions(init):
            arg = model.summaries.argument_for(site, init, param)
            named = self.handed_callable(arg, site) if arg is not None else None
            if named is None:
                return None
            local += named
        positions = [p for p in parameter_names(init) if p not in ("self", "cls")]
        others = model.project.handed_elsewhere(cls.name.value, param, positions.index(param))  # type: ignore[union-attr]
        if others is None or not (local or others):
            return None
        return local, others

    def handed_callable(self, expr: cst.BaseExpression, at: cst.CSTNode) -> list[cst.FunctionDef] | None:
        """The functions of this file that `expr`, handed uncalled at `at`, names (`self.batch_energy`,
        `batch_energy` bound by no name of its scope), none of which differentiates (a training step's
        caller would keep a loss already backwarded); None otherwise."""
        model = self.model
        if type(expr) is cst.Name and self.provenance.reaching_bindings(model.scope_of(at), expr.value, at):
            return None
        named = model.functions_named(expr, at) if type(expr) in (cst.Name, cst.Attribute) else []
        if not named or any(model.loops.has_backward(f) for f in named):
            return None
        return named

    def callables_handed(self, imported: list[tuple[cst.Call, str]]) -> list[list[Any]]:
        """What the calls of imported functions and classes (each with its callee as written) hand them as
        callables of this file, uncalled (`RunningStat(self.batch_energy)`): [callee as written, [[position
        or keyword, what calling it returns (a `Value`)], ...]], for the calls that hand one (summary part
        `handed_callables`). The class of another file that calls what its constructor was handed reads it."""
        found = []
        for call, name in imported:
            handed = []
            position = 0
            for arg in call.args:
                if arg.star:
                    break
                key: int | str = arg.keyword.value if arg.keyword is not None else position
                position += arg.keyword is None
                named = self.handed_callable(arg.value, call)
                if named:
                    value = join([self.model.summaries.returns(f) or Value(history=NO) for f in named])
                    handed.append([key, value.to_json()])
            if handed:
                found.append([name, handed])
        return found

    def exported(self, func: cst.FunctionDef, param: str) -> list[Any]:
        """How the project's other files would call `func` with `param` (the summary's `passes`):
        [function or class, parameter, position, whether a class, its calls in this file]
        ([] where they cannot: a method; calls -1: also handed on, so not all known)."""
        model = self.model
        cls = model.enclosing_class(func)
        init = func.name.value == "__init__"
        if not ((cls is None or (init and model.tree.parent_of(cls) is model.module)) and (
            init or model.tree.parent_of(func) is model.module
        )):
            return []
        params = [p.name.value for p in [*func.params.posonly_params, *func.params.params]]
        if params and params[0] in ("self", "cls") and init:
            params = params[1:]
        passed = self.passed(func, param)
        name = cls.name.value if init and cls is not None else func.name.value
        return [name, param, params.index(param) if param in params else -1, init, -1 if passed is None else len(passed)]

    def handed_element(self, expr: cst.BaseExpression, at: cst.CSTNode) -> tuple[cst.Call, int] | None:
        """`stats` after `loss, stats = self.actor(data)`, where `self.actor` came in by a parameter
        (`named_parameter`): that call, and the element of what it returns that `expr` holds."""
        if type(expr) is not cst.Name:
            return None
        scope = self.model.scope_of(at)
        bindings = self.provenance.reaching_bindings(scope, expr.value, at)
        found = {(id(value), element): value for value, element in map(unpacked, bindings)}
        if len(found) != 1:
            return None
        (_, element), value = next(iter(found.items()))
        if type(value) is not cst.Call or element is None or self.named_parameter(value) is None:
            return None
        return value, element

    # -- what a parameter is ----------------------------------------------------------------------
    def parameter_kind(self, func: cst.FunctionDef, param: cst.Param) -> tuple[str | None, str | None]:
        """What `func`'s parameter `param` holds where the code shows it: MODULE or TENSOR by its
        annotation; MODULE where `func` uses it as one (`model.parameters()`) or a call of this file
        hands it one; None where its annotation, or every call of this file, shows something else.
        Only where nothing shows it, its name's guess (`named_kind`), with the assumption in words."""
        kind = param_kind(self.model, param)
        if kind is not None:
            return (kind if kind != "other" else None), None
        name = param.name.value
        body = func.body.body
        if body and self.shown_module(func, name, body[0]):
            return MODULE, None
        passed = self.passed(func, name)
        kinds = {kind for _, kind in passed or ()}
        if HANDS_MODULE in kinds:
            return MODULE, None
        if passed and kinds == {HANDS_OTHER}:
            return None, None
        guessed = named_kind(name)
        if guessed is None:
            return None, None
        what = "a module" if guessed == MODULE else "a tensor"
        return guessed, f"`{name}` is {what}, as its name says: no caller in sight shows what it is handed"

    # -- what this file's callers hand it -------------------------------------------------------
    def passed(self, func: cst.FunctionDef, param: str, depth: int = 0) -> list[tuple[Grad, str]] | None:
        """For each call of `func` in this file, the grad mode it is made in and what it hands `param`
        (HANDS_*); for `__init__`, the calls that construct its class. None where `func` is also
        used another way (handed on, stored): its callers are not all in sight."""
        model = self.model
        if func.name.value == "__init__":
            sites = self._constructions(func)
        else:
            sites = model.call_sites().get(func)
            if sites is None or (not sites and self._referenced(func)):
                return None
        found = []
        for site in sites:
            arg = model.summaries.argument_for(site, func, param)
            kind = HANDS_UNKNOWN if arg is None else self.kind(arg, site, depth)
            if arg is None and _default_is_none(func, param):
                kind = HANDS_OTHER  # left out: None
            # (a construction's grad mode is not the one its object's methods run in: theirs decide)
            found.append((Grad.ON if func.name.value == "__init__" else model.grad_state(site), kind))
        return found

    def parameter_values(self, expr: cst.BaseExpression | None) -> list[cst.BaseExpression]:
        """`handed_values` of the parameter `expr` names where it is read (a parameter never bound
        again but to itself placed); [] for any other expression."""
        scope = self.model.scope_of(expr) if type(expr) is cst.Name else None
        if type(scope) is not cst.FunctionDef or expr.value not in self.model.params(scope):  # type: ignore[union-attr]
            return []
        known = self._parameter_values.get(id(expr))
        if known is None:
            known = self._parameter_values[id(expr)] = self._values_of(expr, expr, 0)  # type: ignore[arg-type]
        return known

    def handed_values(self, func: cst.FunctionDef, param: str, depth: int = 0) -> list[cst.BaseExpression]:
        """The values every call of `func` in this file hands `param` (for `__init__`, every construction
        of its class), followed through names bound to them, parameters handed on and functions of this
        file that return them (`criterion = self._select_criterion()` where it returns `nn.MSELoss()`):
        the expressions that make them; [] where a call, a binding or a return is out of sight."""
        if depth >= _VALUE_STEPS:
            return []
        if func.name.value == "__init__":
            sites = self._constructions(func)
        else:
            sites = self.model.call_sites().get(func) or []
        found: list[cst.BaseExpression] = []
        for site in sites:
            arg = self.model.summaries.argument_for(site, func, param)
            values = self._values_of(arg, site, depth + 1) if arg is not None else []
            if not values:
                return []
            found += values
        return found

    def _values_of(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int) -> list[cst.BaseExpression]:
        """What makes the value `expr` holds at `at` (see `handed_values`); [] where it is out of sight."""
        model = self.model
        if depth >= _VALUE_STEPS:
            return []
        steps: list[tuple[cst.BaseExpression | None, cst.CSTNode]]
        if type(expr) is cst.Call:
            callees = model.local_callees(expr)
            if not callees:
                return [expr]  # a construction, or a call this file does not define: the asker says what it makes
            returns = [r for f in callees for r in model.tree.descendants(f.body, cst.Return) if model.scope_of(r) is f]
            steps = [(r.value, r) for r in returns]
        elif type(expr) is cst.Name:
            scope = model.scope_of(at)
            if type(scope) is cst.FunctionDef and expr.value in model.params(scope):
                if not self._plain_parameter(scope, expr.value):
                    return []
                return self.handed_values(scope, expr.value, depth + 1)  # what this file's callers hand it
            bindings = self.provenance.reaching_bindings(scope, expr.value, at)
            if not bindings and model.functions_named(expr, at):
                return [expr]  # a function of this file, handed on as a value (`map_batches(loader, embed_batch)`)
            bindings = bindings or model.bindings(model.module, expr.value)
            # `a, b = f(x)`: which part the name receives, only the definition of `f` says
            steps = [(value if element is None else None, b.node) for b in bindings for value, element in [unpacked(b)]]
        else:
            return [expr]
        found: list[cst.BaseExpression] = []
        for value, node in steps:
            values = self._values_of(value, node, depth + 1) if value is not None else []
            if not values:
                return []
            found += values
        return found

    def _referenced(self, func: cst.FunctionDef) -> bool:
        """Is `func` named somewhere other than where it is called (handed on, stored, exported)?"""
        name = func.name.value
        return any(n.value == name for n in self.model.tree.by_type.get(cst.Name, ()) if n is not func.name)

    def _constructions(self, init: cst.FunctionDef) -> list[cst.Call]:
        """The calls of this file that construct `init`'s class (`Predictor(model)`)."""
        model = self.model
        cls = model.enclosing_class(init)
        if cls is None or model.calls.classes.get(cls.name.value) is not cls:
            return []
        return [c for c in model.tree.by_type.get(cst.Call, ()) if type(c.func) is cst.Name and c.func.value == cls.name.value]

    def kind(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> str:
        """What `expr`, handed at `at`, is as this file shows it (HANDS_*)."""
        model = self.model
        if type(expr) in _LITERALS or (type(expr) is cst.Name and expr.value in ("None", "True", "False")):
            return HANDS_OTHER
        if type(expr) in (cst.Name, cst.Attribute) and self.module_facts.is_module(expr, at):
            return HANDS_MODULE
        scope = model.scope_of(at)
        if type(expr) is cst.Name and expr.value == "self" and isinstance(scope, cst.FunctionDef) and self.provenance.in_module_class(scope):
            return HANDS_MODULE  # a method of a module class of this file hands its own object
        if type(expr) is cst.Attribute and type(at) is cst.Call and model.eval_regions.kept_in_eval_mode(expr, at):
            return HANDS_MODULE  # `self.embedder`, bound only to `Net(...).eval()` (placed) in its class
        if type(expr) is cst.Name and isinstance(scope, cst.FunctionDef) and expr.value in model.params(scope):
            return self._parameter_kind(scope, expr.value, depth)
        if type(expr) is cst.Name and not model.bindings(scope, expr.value) and any(
            model.enclosing_class(f) is None for f in model.functions.get(expr.value, ())
        ):
            return HANDS_OTHER  # a function of this file, handed to be called
        values = self.provenance.held_values(expr, at) if type(expr) in (cst.Name, cst.Attribute) else [expr]
        kinds = {self._made(v) for v in values}
        return kinds.pop() if len(kinds) == 1 else HANDS_UNKNOWN

    def _parameter_kind(self, func: cst.FunctionDef, param: str, depth: int) -> str:
        """A parameter handed on (`def main(model): evaluate(model)`): what `func`'s own callers hand it."""
        params = [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]
        declared = next((p for p in params if p.name.value == param), None)
        if declared is not None and declared.annotation is not None:
            kind = annotation_kind(self.model, declared.annotation.annotation)
            return HANDS_MODULE if kind == MODULE else HANDS_OTHER if kind is not None else HANDS_UNKNOWN
        if depth >= _DEPTH:
            return HANDS_UNKNOWN
        passed = self.passed(func, param, depth + 1)
        return verdict(passed) if passed is not None else HANDS_UNKNOWN

    def _made(self, value: cst.BaseExpression) -> str:
        """What a bound value is: a module made (`nn.Linear(...)`, a module class of the project, placed
        or not), something surely not one (a literal, an object of a class that is not one), else unknown."""
        model = self.model
        if type(value) in _LITERALS:
            return HANDS_OTHER
        if type(value) is not cst.Call:
            return HANDS_UNKNOWN
        if self.provenance.is_module_factory(value):
            return HANDS_MODULE
        switched = False
        while type(value) is cst.Call and method_name(value) in MODULE_SELF_RETURNING:
            # `MTCNN(...).eval()`: an object switched to evaluation or training mode, then run, is a module
            switched = switched or (method_name(value) in ("eval", "train") and not value.args)
            value = value.func.value  # type: ignore[attr-defined]
        if type(value) is not cst.Call:
            return HANDS_MODULE if switched else HANDS_UNKNOWN
        made = model.project.constructed(value, record=False)
        if made is not None:
            return HANDS_MODULE if made.get("kind") in ("module", "lightning") else HANDS_OTHER
        cls = model.calls.classes.get(value.func.value) if type(value.func) is cst.Name else None
        if cls is not None and all(b.keyword is not None or dotted(b.value) == "object" for b in cls.bases):
            return HANDS_OTHER  # a class of this file that derives from nothing: no module
        return HANDS_MODULE if switched else HANDS_UNKNOWN

    # -- what this file hands other files' functions (the summary's `passes`) --------------------
    def passes(self, imported: list[tuple[cst.Call, str]]) -> list[list[Any]]:
        """What the calls of imported functions and classes (each with its callee as written) hand them:
        [callee as written, grad mode, [[position or keyword, HANDS_MODULE or HANDS_OTHER(, class)], ...]]
        (an argument nothing in sight shows is left out; the class, as written, where the argument is an
        object of a class of another file of the project). Another file's function whose parameter is run
        as a model by its name alone reads what its callers hand it here, and a class that calls the
        object it is handed reads what that object's class returns."""
        found = []
        for call, name in imported:
            if call.args:
                handed = [entry for entry in self._handed_arguments(call) if entry[1] != HANDS_UNKNOWN or len(entry) > 2]
                found.append([name, self.model.grad_state(call).value, handed])
        return found

    def _handed_arguments(self, call: cst.Call) -> Iterator[list[Any]]:
        position = 0
        for arg in call.args:
            if arg.star:
                return
            key: int | str = arg.keyword.value if arg.keyword is not None else position
            made = self._project_class(arg.value, call)
            yield [key, self.kind(arg.value, call), *([made] if made else [])]
            position += arg.keyword is None

    def _project_class(self, expr: cst.BaseExpression, at: cst.CSTNode) -> str | None:
        """The imported callable (as written here) whose call made every value `expr` holds (`actor =
        BBActor(net)`): the project index finds the class where the project defines it."""
        values = self.provenance.held_values(expr, at) if type(expr) in (cst.Name, cst.Attribute) else [expr]
        imported = self._imported_roots
        names = {
            dotted(v.func) if type(v) is cst.Call and (dotted(v.func) or "").partition(".")[0] in imported else None
            for v in values
        }
        return names.pop() if len(names) == 1 and values else None

    @cached_property
    def _imported_roots(self) -> set[str]:
        """The names the file's imports bind (asked for every argument of every imported call)."""
        imports = self.model.imports
        return imports.aliases.keys() | imports.relative.keys()


def verdict(passed: list[tuple[Grad, str]]) -> str:
    """What the callers say of a parameter run as a model: HANDS_MODULE where a call with grad on hands
    it a module; HANDS_OTHER where every such call hands something that is not one; HANDS_UNKNOWN
    otherwise, and where no call in sight runs it with grad (one that does is elsewhere)."""
    with_grad = [kind for grad, kind in passed if grad is not Grad.OFF]
    if not with_grad:
        return HANDS_UNKNOWN
    if HANDS_MODULE in with_grad:
        return HANDS_MODULE
    if all(kind == HANDS_OTHER for kind in with_grad):
        return HANDS_OTHER
    return HANDS_UNKNOWN


def _default_is_none(func: cst.FunctionDef, param: str) -> bool:
    for p in [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]:
        if p.name.value == param:
            return p.default is not None and type(p.default) is cst.Name and p.default.value == "None"
    return False


def _placed_name(value: cst.BaseExpression | None) -> str | None:
    """`model.to(device).eval()` -> "model": the name a value is, placed or switched."""
    while type(value) is cst.Call and method_name(value) in MODULE_SELF_RETURNING:
        value = value.func.value  # type: ignore[attr-defined]
    return value.value if type(value) is cst.Name else None

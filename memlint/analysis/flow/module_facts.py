"""Which callees are modules, from what the code does with them rather than from their names.

A name (a local, a parameter, a global) or a `self` attribute is a module when
the file shows it: a method that only `nn.Module` has is called on it
(`net_g.eval()`, `optimizer = SGD(ciexyz_net.parameters())`), whatever it is
called, or it is bound to the module such a method returns (`self.vae =
load(path).to(device).eval()`); calling it, or one of its `forward*` passes, runs it (its other
methods may be hooks, setters or savers). A callee is something else when the
file shows that instead: a
function reached through an imported package (`onnx.checker.check_model`), or
a parameter annotated with a type from an imported package that is not a
module (`data: pd.DataFrame`), or with a builtin type.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.flow.bindings import unpacked
from memlint.analysis.library import MODULE_SELF_RETURNING, SUBMODULE_ITERATORS
from memlint.analysis.syntax.scopes import Binding
from memlint.analysis.syntax.expressions import bool_constant, call_arg, code, method_name, names_in, target_names
from memlint.analysis.syntax.imports import dotted
from memlint.analysis.flow.object_kinds import MODULE, annotation_kind

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

# Methods of `nn.Module` that no tensor, optimizer, scheduler or common container has:
# calling one on a value says it is a module. (`eval` only without arguments: `DataFrame.eval(expr)`.)
MODULE_EVIDENCE = {
    "eval", "parameters", "named_parameters", "modules", "named_modules", "children", "named_children",
    "buffers", "named_buffers", "requires_grad_",
}
_BUILTIN_TYPES = {"str", "int", "float", "bool", "bytes", "dict", "list", "tuple", "set"}
# Methods that move or switch a module and return it (`Net().to(device)`).
# Calls that return a package: `onnx = pytest.importorskip("onnx")` binds a package like `import onnx`.
_IMPORTERS = {"importlib.import_module", "pytest.importorskip", "__import__"}
_HELD_DEPTH = 6  # bindings and functions followed back to where a module comes from



def _evidence(call: cst.Call) -> bool:
    """Is `call` a method that only `nn.Module` has, called on its receiver (`net.eval()`)?"""
    method = method_name(call)
    return method in MODULE_EVIDENCE and not (method == "eval" and call.args)

class ModuleFacts:
    def __init__(self, model: "FileContext") -> None:
        self.model = model

    @cached_property
    def _shown(self) -> tuple[dict[int, set[str]], dict[int, set[str]]]:
        """Receivers shown to be modules: names per scope (id of the function or module), and
        `self.<attr>` per class (id of the class)."""
        model = self.model
        names: dict[int, set[str]] = {}
        attributes: dict[int, set[str]] = {}

        def shown(receiver: cst.BaseExpression, at: cst.CSTNode) -> None:
            scope = model.scope_of(at)
            if isinstance(receiver, cst.Name):
                names.setdefault(id(scope), set()).add(receiver.value)
            elif isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name):
                cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
                if receiver.value.value == "self" and cls is not None:
                    attributes.setdefault(id(cls), set()).add(receiver.attr.value)

        for call in model.tree.by_type.get(cst.Call, ()):
            if _evidence(call):
                shown(call.func.value, call)  # type: ignore[attr-defined]
        # and what is bound to the module such a call returns (`self.vae = load(...).to(device).eval()`)
        for assign in model.tree.by_type.get(cst.Assign, ()):
            value = assign.value
            while type(value) is cst.Call and method_name(value) in MODULE_SELF_RETURNING and not _evidence(value):
                value = value.func.value  # type: ignore[attr-defined]
            if type(value) is cst.Call and _evidence(value) and method_name(value) in MODULE_SELF_RETURNING:
                for target in assign.targets:
                    shown(target.target, assign)
        return names, attributes

    @cached_property
    def _imported_packages(self) -> set[str]:
        """Local names bound by a plain `import pkg` / `import pkg as p`: packages, not objects."""
        found: set[str] = set()
        for node in self.model.tree.by_type.get(cst.Import, ()):
            for alias in node.names:
                local = dotted(alias.asname.name) if alias.asname is not None else dotted(alias.name)
                if local:
                    found.add(local.split(".")[0])
        return found

    def _is_package(self, name: str, scope: cst.CSTNode) -> bool:
        """Is `name`, read in `scope`, a package: bound by `import`, or only by an importer call?"""
        bindings = self.model.bindings(scope, name)
        if not bindings:
            return name in self._imported_packages
        return all(
            isinstance(b.value, cst.Call) and self.model.imports.resolve(b.value.func) in _IMPORTERS for b in bindings
        )

    def is_module(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Does the file show that `expr` (a name or `self.<attr>`), as read at `at`, is a module?"""
        names, attributes = self._shown
        scope = self.model.scope_of(at)
        if type(expr) is cst.Name:
            if expr.value in names.get(id(scope), ()):
                return True
            bound_here = bool(self.model.bindings(scope, expr.value)) or expr.value in self.model.params(scope)
            return not bound_here and expr.value in names.get(id(self.model.module), ())
        if type(expr) is cst.Attribute and type(expr.value) is cst.Name and expr.value.value == "self":
            cls = self.model.enclosing_class(scope) if type(scope) is cst.FunctionDef else None
            return cls is not None and expr.attr.value in attributes.get(id(cls), ())
        return False

    def runs_module(self, call: cst.Call) -> bool:
        """Does `call` run a value the file shows is a module: `net(x)`, or one of its forward
        passes (`net.forward_local(x)`, timm's `forward_features`)? Its other methods may be
        anything (a hook, a save, a setter), so they count only by that name convention."""
        func = call.func
        if self.is_module(func, call) or self.holds_module(func, call):
            return True
        if type(func) is not cst.Attribute or not func.attr.value.startswith("forward"):
            return False
        return self.is_module(func.value, call)

    def holds_module(self, expr: cst.BaseExpression, at: cst.CSTNode, depth: int = 0) -> bool:
        """Does the file show that `expr` holds a module by where it comes from: a parameter annotated
        with a module class (`block: nn.Module`), never bound again; an element of a module container
        (`layers[i]`, `for layer in blocks`, of a tuple of modules too) or a submodule a module yields
        (`for _, m in model.named_modules()`, the library table); a module placed (`layers[i].to(device)`);
        or a name every binding of which is one of these?"""
        if depth > _HELD_DEPTH:
            return False
        kind = type(expr)
        if kind is cst.Subscript:
            return self.holds_module(expr.value, at, depth)
        if kind is cst.Call:
            if method_name(expr) in MODULE_SELF_RETURNING:
                return self.holds_module(expr.func.value, at, depth)  # type: ignore[attr-defined]
            # a function of the project that returns a module (`get_module_by_name(model, name)`)
            callees = self.model.local_callees(expr)  # type: ignore[arg-type]
            if callees:
                return all(self.returns_module(c, depth + 1) for c in callees)
            return bool((self.model.project.function(expr) or {}).get("returns_module"))  # type: ignore[arg-type]
        if kind in (cst.Tuple, cst.List):
            return bool(expr.elements) and all(self.holds_module(e.value, at, depth) for e in expr.elements)  # type: ignore[attr-defined]
        if kind is not cst.Name:
            return self.is_module(expr, at) if kind is cst.Attribute else False
        model = self.model
        scope = model.scope_of(at)
        bindings = model.bindings(scope, expr.value)
        if not bindings:
            declared = _annotation(scope, expr.value) if type(scope) is cst.FunctionDef else None
            return (declared is not None and annotation_kind(model, declared) == MODULE) or self.is_module(expr, at)
        return all(self._binds_module(b, at, depth) for b in bindings)

    def returns_module(self, func: cst.FunctionDef, depth: int = 0) -> bool:
        """Does every value `func` returns hold a module (`holds_module`: `for _, m in model.named_modules():
        if ...: return m`), where it returns one at all (a lookup may also return None)?"""
        returned = [
            ret.value
            for ret in self.model.tree.descendants(func.body, cst.Return)
            if self.model.scope_of(ret) is func and ret.value is not None
            and not (type(ret.value) is cst.Name and ret.value.value == "None")
        ]
        return bool(returned) and all(self.holds_module(value, value, depth + 1) for value in returned)

    def _binds_module(self, binding: Binding, at: cst.CSTNode, depth: int) -> bool:
        node = binding.node
        if type(node) is not cst.For:
            value, index = unpacked(binding)
            return index is None and value is not None and self.holds_module(value, at, depth + 1)
        iterated = node.iter
        if type(iterated) is cst.Call and type(iterated.func) is cst.Attribute and method_name(iterated) in SUBMODULE_ITERATORS:
            element = SUBMODULE_ITERATORS[method_name(iterated)]  # type: ignore[index]
            target = node.target
            if element is not None:
                parts = target.elements if type(target) is cst.Tuple else ()  # type: ignore[attr-defined]
                if len(parts) <= element or type(parts[element].value) is not cst.Name or parts[element].value.value != binding.name:
                    return False
            elif type(target) is not cst.Name:
                return False
            return self.holds_module(iterated.func.value, at, depth + 1) or self.is_module(iterated.func.value, at)
        return type(node.target) is cst.Name and self.holds_module(iterated, at, depth + 1)

    def makes_module(self, call: cst.Call) -> bool:
        """Does the file show that `call` constructs a module rather than runs one: its result,
        placed or not (`Model[0](envs).to(device)`), is bound to a name that the file shows is a
        module (`actor.eval()`, `actor.parameters()`)? A run returns tensors, which have neither."""
        tree = self.model.tree
        made: cst.CSTNode = call
        parent = tree.parent_of(made)
        while isinstance(parent, cst.Attribute) and parent.attr.value in MODULE_SELF_RETURNING:
            outer = tree.parent_of(parent)
            if not isinstance(outer, cst.Call):
                return False
            made, parent = outer, tree.parent_of(outer)
        if not (isinstance(parent, cst.Assign) and parent.value is made and len(parent.targets) == 1):
            return False
        target = parent.targets[0].target
        return isinstance(target, cst.Name) and self.is_module(target, parent)

    def not_module(self, call: cst.Call) -> bool:
        """Does the file show that `call`'s callee is not a module: a function of an imported
        package (`onnx.checker.check_model(m)`), or a method of a parameter whose annotation is a
        builtin or an imported package's type that is not a module (`data: pd.DataFrame`)?"""
        if self.makes_module(call):
            return True
        chain = dotted(call.func)
        if chain is None:
            return False
        root, _, rest = chain.partition(".")
        scope = self.model.scope_of(call)
        if rest and self._is_package(root, scope):
            return True
        if not isinstance(scope, cst.FunctionDef):
            return False
        for param in [*scope.params.posonly_params, *scope.params.params, *scope.params.kwonly_params]:
            if param.name.value != root or param.annotation is None:
                continue
            annotation = param.annotation.annotation
            if annotation_kind(self.model, annotation) == MODULE:  # type: ignore[arg-type]
                return False
            written = dotted(annotation) or ""
            return written in _BUILTIN_TYPES or written.split(".")[0] in self._imported_packages
        return False

    # -- frozen parameters ----------------------------------------------------------------
    @cached_property
    def _freezes(
        self,
    ) -> tuple[dict[str, list[tuple[cst.CSTNode, int]]], dict[str, list[tuple[cst.CSTNode, int]]], set[int]]:
        """What the file freezes: receiver as written -> [(scope, position of the freeze)], and what
        it makes require grad again, by the root of the receiver (`model.head.requires_grad_(True)`
        unfreezes a part of `model`) -> [(scope, position)]; and the ids of the statements and calls
        that set a module's parameters' `requires_grad` (`p.requires_grad = True` in a loop over
        `model.parameters()`, `p.requires_grad_(False)` there, `model.requires_grad_()` on a module)."""
        model = self.model
        tree = model.tree
        frozen: dict[str, list[tuple[cst.CSTNode, int]]] = {}
        thawed: dict[str, list[tuple[cst.CSTNode, int]]] = {}
        switches: set[int] = set()

        def note(receiver: cst.BaseExpression, flag: bool | None, at: cst.CSTNode) -> None:
            receiver = _unplaced(receiver)
            written = code(receiver)
            where = (model.scope_of(at), tree.order[id(at)])
            if flag is False:
                frozen.setdefault(written, []).append(where)
            else:
                thawed.setdefault(_root(written), []).append(where)

        for call in tree.by_type.get(cst.Call, ()):
            if method_name(call) != "requires_grad_":
                continue
            arg = call_arg(call, 0, "requires_grad")
            flag = bool_constant(arg.value) if arg is not None else True
            receiver = call.func.value  # type: ignore[attr-defined]
            # `sampler = Net().eval().requires_grad_(False)`: the name bound is what is frozen
            statement = tree.statement_of(call)
            if isinstance(statement, cst.Assign) and len(statement.targets) == 1 and _unplaced(statement.value) is call:
                receiver = statement.targets[0].target
            note(receiver, flag, statement)
            if self.is_module(_unplaced(call.func.value), call):  # type: ignore[attr-defined]
                switches.add(id(call))
        for loop in tree.by_type.get(cst.For, ()):
            it = loop.iter
            if not (isinstance(it, cst.Call) and method_name(it) in ("parameters", "named_parameters")):
                continue
            params = set(target_names(loop.target))
            for node in tree.descendants(loop.body, cst.Assign):
                target = node.targets[0].target
                if (
                    isinstance(target, cst.Attribute)
                    and target.attr.value == "requires_grad"
                    and isinstance(target.value, cst.Name)
                    and target.value.value in params
                ):
                    note(it.func.value, bool_constant(node.value), loop)  # type: ignore[attr-defined]
                    switches.add(id(node))
            for call in tree.descendants(loop.body, cst.Call):
                receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
                if method_name(call) == "requires_grad_" and isinstance(receiver, cst.Name) and receiver.value in params:
                    arg = call_arg(call, 0, "requires_grad")
                    note(it.func.value, bool_constant(arg.value) if arg is not None else True, loop)  # type: ignore[attr-defined]
                    switches.add(id(call))
        return frozen, thawed, switches

    def switches_parameters(self, node: cst.CSTNode) -> bool:
        """Does `node` (an assignment or a call) set whether a module's parameters require grad
        (see `_freezes`)? It says what a later backward may train, not that a forward needs a graph."""
        return id(node) in self._freezes[2]

    def frozen(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Are the parameters of the module `expr` (a name, `self.<attr>`) frozen where `at` runs?
        A name: frozen earlier in the same function, and not bound again since, except to a value
        made from itself (`sampler = torch.jit.trace(sampler, c)`), nor made to require grad again
        in that function after the freeze (a part of it, or in a loop around the call: at any later
        position); a freeze at the start of a function holds there whatever other code thaws before
        calling it. `self.<attr>`: frozen anywhere in its class, and made to require grad nowhere in
        the file."""
        frozen, thawed, _ = self._freezes
        if not frozen:
            return False
        written = code(expr)
        if written not in frozen:
            return False
        thaws = thawed.get(_root(written), [])
        model = self.model
        scope = model.scope_of(at)
        if isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self":
            cls = model.enclosing_class(scope) if isinstance(scope, cst.FunctionDef) else None
            return cls is not None and not thaws and any(
                isinstance(where, cst.FunctionDef) and model.enclosing_class(where) is cls for where, _ in frozen[written]
            )
        if not isinstance(expr, cst.Name):
            return False
        position = model.tree.order[id(at)]
        rebound = [
            model.tree.order[id(b.node)]
            for b in model.bindings(scope, expr.value)
            if b.value is None or expr.value not in set(names_in(b.value))
        ]
        return any(
            where is scope
            and order < position
            and not any(order < r < position for r in rebound)
            and not any(there is scope and thaw > order for there, thaw in thaws)
            for where, order in frozen[written]
        )

    def runs_frozen(self, call: cst.Call, direct: bool) -> bool:
        """Does `call` run only frozen modules, on inputs without history, so that it records no
        graph: a frozen module itself (`direct`: `net(x)`, `net.forward(x)`, also one whose class
        freezes it as it is made), or a function handed modules that are all frozen
        (`test_network(net, env)`)?"""
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value.startswith("forward"):
            func = func.value
        # first: most files freeze nothing, and the arguments' history costs
        if not self._freezes[0] and not (direct and self.made_frozen(func, call)):
            return False
        provenance = self.model.provenance  # type: ignore[attr-defined]
        if any(provenance.carries_history(arg.value, call) for arg in call.args):
            return False
        if direct:
            return self.frozen(func, call) or self.made_frozen(func, call)
        handed = [a.value for a in call.args if self.frozen(a.value, call) or self.is_module(a.value, call)]
        return bool(handed) and all(self.frozen(value, call) for value in handed)

    def made_frozen(self, expr: cst.BaseExpression, at: cst.CSTNode) -> bool:
        """Is every value the name `expr` holds at `at` (bound in its function, or handed to it as a
        parameter by every call of this file) a module whose class freezes it as it is made
        (`model = InceptionV3([idx])`, `construction_freeze`), never made to require grad again here?"""
        if type(expr) is not cst.Name or self._freezes[1].get(expr.value):
            return False
        model = self.model
        values = model.handed.parameter_values(expr) or model.provenance.held_values(expr, at)  # type: ignore[attr-defined]
        return bool(values) and all(type(made := _unplaced(v)) is cst.Call and self._frozen_construction(made) for v in values)

    def _frozen_construction(self, made: cst.Call) -> bool:
        """Does `made` construct a class (of this file, or another file's by its summary, `freezes`)
        whose `__init__` freezes the module, with no argument that turns the freeze off?"""
        cls = self.model.calls.classes.get(made.func.value) if type(made.func) is cst.Name else None
        freeze = self.construction_freeze(cls) if cls is not None else (self.model.project.constructed(made) or {}).get("freezes")
        if freeze is None or freeze is True:
            return freeze is True
        name, position = freeze
        arg = call_arg(made, position, name)
        return arg is None or bool_constant(arg.value) is False

    def construction_freeze(self, cls: cst.ClassDef) -> bool | list | None:
        """Does the `__init__` of `cls` freeze every parameter of the module as its last word on
        them: a loop over `self.parameters()` that sets `requires_grad` to False, or to a parameter
        of `__init__` that defaults to False and is never bound again (pytorch-fid's `InceptionV3(...,
        requires_grad=False)`), with nothing set on `self` after it? True where it always does;
        [the parameter, its place among those a construction passes] where that parameter decides;
        None where it does not."""
        model = self.model
        init = next((f for f in cls.body.body if isinstance(f, cst.FunctionDef) and f.name.value == "__init__"), None)
        if init is None:
            return None
        params = [p for p in (*init.params.posonly_params, *init.params.params) if p.name.value != "self"]
        found: bool | list | None = None
        tree = model.tree
        for loop in tree.descendants(init, cst.For):
            it = loop.iter
            if not (
                model.scope_of(loop) is init
                and isinstance(it, cst.Call)
                and method_name(it) in ("parameters", "named_parameters")
                and code(it.func.value) == "self"  # type: ignore[attr-defined]
            ):
                continue
            names = set(target_names(loop.target))
            for node in tree.descendants(loop.body, cst.Assign):
                target = node.targets[0].target
                if not (isinstance(target, cst.Attribute) and target.attr.value == "requires_grad" and code(target.value) in names):
                    continue
                value = node.value
                if bool_constant(value) is False:
                    found = True
                param = next((p for p in params if type(value) is cst.Name and p.name.value == value.value), None)
                if param is not None and param.default is not None and bool_constant(param.default) is False:
                    if not model.bindings(init, param.name.value):
                        found = [param.name.value, params.index(param)]
            if found is not None and any(
                tree.is_after(a, loop) and any(code(t.target).startswith("self.") for t in a.targets)
                for a in tree.descendants(init, cst.Assign)
            ):
                return None  # something set on `self` after the freeze may hold parameters of its own
        return found


def _root(written: str) -> str:
    """The variable a receiver as written belongs to: `model` of `model.head`, `self.net` of `self.net.head`."""
    parts = written.split(".")
    return ".".join(parts[:2]) if parts[0] == "self" and len(parts) > 1 else parts[0]


def _unplaced(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`net.eval().requires_grad_(False).to(device)` -> the call of `requires_grad_`, and its
    receiver `net.eval()` -> `net`: past the calls that place or switch a module and return it."""
    while isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in MODULE_SELF_RETURNING:
        if expr.func.attr.value == "requires_grad_":
            return expr
        expr = expr.func.value
    return expr


def _annotation(func: cst.FunctionDef, name: str) -> cst.BaseExpression | None:
    """The annotation of `func`'s parameter `name`, where it has one."""
    for param in [*func.params.posonly_params, *func.params.params, *func.params.kwonly_params]:
        if param.name.value == name and param.annotation is not None:
            return param.annotation.annotation
    return None

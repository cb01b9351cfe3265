"""`ProjectIndex`: the summaries of a project's files joined, and the findings adjusted by them.

The summaries are written by memlint/analysis/project.py, one per file, in the
worker that parsed it; joining them needs no parse, so this module imports no
LibCST (a run whose files all hit the cache imports neither).
"""

from __future__ import annotations

import os
from dataclasses import replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

# (only modules that need no LibCST: a warm run answered from the cache never imports it)
from memlint.analysis.library import (
    CONTAINER_STORES,
    CPU_SAVED_CHECKPOINT_KEYS,
    MODULE_CLASS_NAME,
    named_like_loss,
    named_like_module,
)
from memlint.analysis.questions import ASSIGNS, CALLERS, DIFFERENTIATES, EVALUATING, OVERRIDES
from memlint.analysis.flow.values import NO, Value, join
from memlint.models import Finding, Position, Severity
from memlint.rules.catalog import RULES

_NAMES = {code: name for code, name, *_ in RULES}
HANDED = "handed"  # (`_call_states`: a definition another file hands on uncalled)


@lru_cache(maxsize=65536)
def module_name(path: str, root: Path) -> str:
    """`pkg/sub/ops.py` -> `pkg.sub.ops` (relative to the project root). (Every round of a run
    indexes every file again: once per file; `forget_packages` forgets them with the packages.)"""
    relative = os.path.relpath(os.path.abspath(path), root).replace(os.sep, "/")
    if relative.startswith("../"):
        relative = os.path.abspath(path).lstrip("/")
    parts = relative[: -len(".py")].split("/") if relative.endswith(".py") else relative.split("/")
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(p for p in parts if p)


@lru_cache(maxsize=65536)
def package_module_name(path: str) -> str | None:
    """`.../src/pkg/sub/ops.py` -> `pkg.sub.ops` where `pkg/` and `pkg/sub/` hold an `__init__.py`
    (the name Python imports it by, whatever folder was linted); None for a file in no package."""
    folder, name = os.path.split(os.path.abspath(path))
    parts = [] if name == "__init__.py" else [name[: -len(".py")] if name.endswith(".py") else name]
    while _is_package(folder):
        folder, package = os.path.split(folder)
        parts.insert(0, package)
        if not package:
            break
    return ".".join(parts) if len(parts) > 1 or name == "__init__.py" else None


@lru_cache(maxsize=4096)
def _is_package(folder: str) -> bool:
    """(Asked for every file of every round of a run: once per folder; `lint_files` forgets the
    answers at its start, so that a long-lived server sees a package made meanwhile.)"""
    return os.path.isfile(os.path.join(folder, "__init__.py"))


# How many re-exports (`from .ops import f` in a package's `__init__.py`) a name is followed through
# to its definition.
_REEXPORT_DEPTH = 3
_BASE_DEPTH = 8  # base classes followed through other files for what a module class holds

# The parts of a file's summary that hold the questions its analysis asked about names other files
# define (engine.py records them where the rules ran in full; an editor's lint of changed statements
# records none, and `facts_for` then hands the file the facts of every name it calls).
QUESTION_PARTS = ("asked", "asked_for_exports")


def forget_packages() -> None:
    for cached in (_is_package, module_name, package_module_name, _relative):
        cached.cache_clear()


@lru_cache(maxsize=65536)
def _relative(path: str) -> str:
    """`path` as messages and facts name it (relative to the working directory), once per file."""
    return os.path.relpath(path)


class Located:
    """Where each file's names are defined (`ProjectIndex.locate`), kept from one index of a run to
    the next: a run's rounds index the same files again (on the bench corpus 26k look-ups, most of
    what the parent does between rounds), and an answer depends only on the set of files, the
    asking file's imports and those of the packages it goes through (`from .ppo import PPO` in an
    `__init__.py` re-exports). Forgotten wholly when some file's imports changed (a file with no
    summary before has one now) or the set of files changes."""

    def __init__(self) -> None:
        self.paths: frozenset[str] = frozenset()
        self.imports: dict[str, Any] = {}  # path -> the imports its answers were found with
        self.answers: dict[str, dict[str, tuple[str, str] | None]] = {}  # path -> name -> answer

    def for_summaries(self, summaries: dict[str, dict[str, Any]]) -> None:
        """Keep only the answers still true of `summaries`."""
        if self.paths != summaries.keys():
            self.paths, self.imports, self.answers = frozenset(summaries), {}, {}
        for path, summary in summaries.items():
            imports = summary.get("imports")
            if path in self.imports and self.imports[path] != imports:
                self.answers = {}  # another file's answer may have gone through this one's imports
            self.imports[path] = imports


class ProjectIndex:
    def __init__(self, summaries: dict[str, dict[str, Any]], root: Path, located: Located | None = None) -> None:
        """`located`: the answers of `locate` from an earlier index of the same run and root."""
        self.modules = {path: package_module_name(path) or module_name(path, root) for path in summaries}
        self.summaries = summaries
        # a module is found by the name its package gives it and by its path from the project root
        self.paths_by_module = {module_name(p, root): p for p in summaries} | {m: p for p, m in self.modules.items()}
        self.ctx_functions: dict[str, str] = {}  # qualified Function -> path
        for path, summary in summaries.items():
            for cls in summary.get("ctx_functions", ()):
                self.ctx_functions[f"{self.modules[path]}.{cls}"] = path
        self.returns_ctx = self._functions_returning_ctx_results()
        if located is None:
            located = Located()
        located.for_summaries(summaries)
        self._located = located.answers
        self._facts: dict[tuple[tuple[str, str], bool, str], dict[str, Any] | None] = {}  # `fact`'s answers
        self._callers_entries: dict[tuple[str, str], dict[str, Any] | None] = {}  # `_callers`', like the joins it reads

    def learn(self, summaries: dict[str, dict[str, Any]]) -> None:
        """Take newer summaries of some of the files (a run's first phase, as they come): what `fact`
        answers follows them; the joins computed once per index do not."""
        self.summaries.update(summaries)
        self._located.clear()
        self._facts.clear()

    def qualify(self, path: str, name: str) -> str:
        """The project-qualified name of `name` as written in `path`."""
        summary = self.summaries.get(path, {})
        root, _, rest = name.partition(".")
        entry = summary.get("imports", {}).get(root)
        if entry is None:
            base = f"{self.modules.get(path, '')}.{root}"
        else:
            level, target = entry
            if level:
                package = self.modules.get(path, "").split(".")
                if not path.endswith("__init__.py"):
                    package = package[:-1]
                package = package[: len(package) - (level - 1)] if level > 1 else package
                base = ".".join([*package, target]) if target else ".".join(package)
            else:
                base = target
        return f"{base}.{rest}" if rest else base

    def _function_of_apply(self, qualified: str) -> str | None:
        if qualified.endswith(".apply") and qualified[: -len(".apply")] in self.ctx_functions:
            return qualified[: -len(".apply")]
        return None

    def _functions_returning_ctx_results(self) -> dict[str, str]:
        """Project functions whose result comes from a ctx-keeping Function -> that Function."""
        result: dict[str, str] = {}
        changed = True
        while changed:
            changed = False
            for path, summary in self.summaries.items():
                for func, refs in summary.get("returns", {}).items():
                    qualified = f"{self.modules[path]}.{func}"
                    if qualified in result:
                        continue
                    for ref in refs:
                        target = self.qualify(path, ref)
                        origin = self._function_of_apply(target) or result.get(target)
                        if origin:
                            result[qualified] = origin
                            changed = True
                            break
        return result

    def ctx_function_behind(self, path: str, sources: list[str]) -> str | None:
        for source in sources:
            target = self.qualify(path, source)
            origin = self._function_of_apply(target) or self.returns_ctx.get(target)
            if origin:
                return origin
        return None

    def only_called_without_grad(self, path: str, function: str, by_name: bool = False) -> bool:
        # found as `locate` finds a definition (a script's sibling module imported by its bare name too)
        states = self._call_states.get((path, function))
        if not states and by_name and "." in function:
            # a method no caller shows the class of (`self.policy.get_log_probs_ref_model(...)`): every
            # call of its name on an object, in any file of the project, this one included
            method = function.rpartition(".")[2]
            states = {s for summary in self.summaries.values() if (s := (summary.get("method_grad") or {}).get(method))}
        return states == {"off"}

    @cached_property
    def _call_states(self) -> dict[tuple[str, str], set[str]]:
        """(file, function or `Class.method`) of the project's definitions that other files call -> the
        grad states of those calls (`on`, `off`, `maybe`, or evaluating with grad on), as each file's
        analysis found them: under the caller's own context, so that a call from a function that
        itself runs only without grad counts as one without grad; `HANDED` where a file hands it on
        uncalled (its runs there are out of sight)."""
        found: dict[tuple[str, str], set[str]] = {}
        for path, summary in self.summaries.items():
            uses = [
                *summary.get("calls", ()),
                # (also the methods it calls per batch with grad off on a local object: `ev.eval_step(batch)`)
                *((name, "off") for name in summary.get("batch_calls_without_grad", ())),
                *((name, HANDED) for name in summary.get("handed_imports", ())),
            ]
            for name, state in uses:
                if (where := self.locate(path, name)) is not None:
                    found.setdefault(where, set()).add(state)
        return found

    def _method_runs_only_without_grad(self, function: str) -> bool:
        """Does every call of the method's name on an object, in any file of the project, run without
        grad (`method_grad`: the calls whose receiver's class no file shows, and a subclass's), and does
        no file hand a method of that name on uncalled (`handed_methods`)?"""
        method = function.rpartition(".")[2]
        return not any(
            (summary.get("method_grad") or {}).get(method, "off") != "off" or method in summary.get("handed_methods", ())
            for summary in self.summaries.values()
        )

    @cached_property
    def _called_with_grad(self) -> dict[tuple[str, str], bool]:
        """(file, function) of the project's functions that another file calls with grad on -> whether
        every such call hands it modules in eval mode only, outside any training step."""
        with_grad = {"on", EVALUATING}
        return {where: states & with_grad == {EVALUATING} for where, states in self._call_states.items() if states & with_grad}

    @cached_property
    def _made_by_callers(self) -> dict[tuple[str, str], list[list[list[Any]]]]:
        """(file, function) of the project's functions that other files call with arguments -> for each
        such call, [position or keyword, the function of that same file whose call made the argument,
        or None where another file's does] for each argument a call of one project callable made
        (`evaluate(pipe, clip_models=preped)` where `preped = prepare_clip_models()`: the summary's
        `passes`): the file's analysis follows those functions' returns to what its parameter holds."""
        found: dict[tuple[str, str], list[list[list[Any]]]] = {}
        for path, summary in self.summaries.items():
            for callee, _, handed in summary.get("passes", ()):
                where = self.locate(path, callee)
                if where is None or where[0] == path:
                    continue
                made = []
                for key, _, *maker in handed:
                    located = self.locate(path, maker[0]) if maker else None
                    if maker:
                        made.append([key, located[1] if located is not None and located[0] == where[0] else None])
                found.setdefault(where, []).append(made)
        return found

    @cached_property
    def _callables_by_callers(self) -> dict[tuple[str, str], list[list[list[Any]]]]:
        """(file, function or class) of the project's callables that other files call handing them callables
        of their own, uncalled (`RunningStat(self.batch_energy)`) -> for each such call, [position or keyword,
        what calling the handed callable returns (a `Value`)] for each (the summary's `handed_callables`)."""
        found: dict[tuple[str, str], list[list[list[Any]]]] = {}
        for path, summary in self.summaries.items():
            for callee, handed in summary.get("handed_callables", ()):
                where = self.locate(path, callee)
                if where is not None and where[0] != path:
                    found.setdefault(where, []).append(handed)
        return found

    @cached_property
    def _instances_by_callers(self) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
        """(file, function or class) of the project's callables that other files call handing an argument an
        object of a project class (`minimize(closure, stopping_criterion=criterion)` where `criterion =
        MovingAverageCriterion()`: the summary's `passes`) -> position or keyword (as a string) -> the
        methods of that object's class that keep an argument, with their facts and the class as written
        (`__call__` inherited from a base class too): the callee's file reads what a call of its parameter
        keeps. Where calls hand objects of several classes, the first that keeps something answers."""
        found: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
        for path, summary in self.summaries.items():
            for callee, _, handed in summary.get("passes", ()):
                where = self.locate(path, callee)
                if where is None or where[0] == path:
                    continue
                for key, _, *made in handed:
                    if made and str(key) not in found.get(where, {}):
                        methods = self._keeping_methods(path, made[0])
                        if methods:
                            found.setdefault(where, {})[str(key)] = methods
        return found

    def _keeping_methods(self, path: str, cls: str) -> dict[str, Any]:
        """The methods of the project class `cls` (as written in `path`) that keep an argument, by name:
        their facts, with the class as written."""
        where = self.locate(path, cls)
        if where is None:
            return {}
        names = {"__call__", "forward"}
        for other, name in [where, *self._project_bases(*where)]:
            prefix = f"{name}."
            names |= {key[len(prefix):] for key in self.summaries[other].get("flow") or {} if key.startswith(prefix)}
        found = {}
        for method in sorted(names):
            facts = self.fact(path, f"{cls}.{method}")
            if facts and facts.get("keeps"):
                found[method] = {**facts, "class": cls}
        return found

    def _called_from_other_files(self, part: str) -> set[tuple[str, str]]:
        """(file, function or `Class.method`) of the project's definitions that the summary part `part`
        of another file names."""
        return {
            where
            for path, summary in self.summaries.items()
            for name in summary.get(part, ())
            if (where := self.locate(path, name)) is not None and where[0] != path
        }

    @cached_property
    def _called_per_step(self) -> set[tuple[str, str]]:
        """The definitions that another file calls on every training step (`ema.update(model)` in its
        training loop)."""
        return self._called_from_other_files("per_step_calls")

    @cached_property
    def _history_by_callers(self) -> dict[tuple[str, str], dict[str, str]]:
        """(file, function or `Class.method`) of the project's definitions that other files call on every
        training step handing an argument with autograd history (`history_calls`) -> position or keyword
        (as a string; `*`, `**` for an unpacked argument) -> the first such call, `file:line`."""
        found: dict[tuple[str, str], dict[str, str]] = {}
        for path, summary in sorted(self.summaries.items()):
            for name, key, row in summary.get("history_calls", ()):
                where = self.locate(path, name)
                if where is not None and where[0] != path:
                    found.setdefault(where, {}).setdefault(str(key), f"{_relative(path)}:{row}")
        return found

    @cached_property
    def _called_per_batch_without_grad(self) -> set[tuple[str, str]]:
        """The definitions that another file calls once per batch with grad off: evaluation steps of
        other files' loops."""
        return self._called_from_other_files("batch_calls_without_grad")

    @cached_property
    def _applied_tensors(self) -> dict[tuple[str, str], set[int | str]]:
        """(file, `Function.apply`) of the project's autograd Functions that other files apply -> the
        positions (keywords) of the arguments some such call hands a tensor (`applied_tensors`)."""
        found: dict[tuple[str, str], set[int | str]] = {}
        for path, summary in self.summaries.items():
            for name, positions in summary.get("applied_tensors", ()):
                where = self.locate(path, name)
                if where is not None and where[0] != path:
                    found.setdefault(where, set()).update(positions)
        return found

    @cached_property
    def _trained_through(self) -> set[tuple[str, str]]:
        """(file, function or `Class.method`) of the project's definitions whose results another file
        differentiates (`trained_calls`: a training forward, whatever its name)."""
        return {
            where
            for path, summary in self.summaries.items()
            for name in summary.get("trained_calls", ())
            if not name.startswith(".") and (where := self.locate(path, name)) is not None and where[0] != path
        }

    @cached_property
    def _trained_methods(self) -> set[str]:
        """The method names that some file calls on an object whose class it does not show and whose
        results it differentiates (`self.policy.evaluate_actions(...)` in a PPO update)."""
        return {name[1:] for summary in self.summaries.values() for name in summary.get("trained_calls", ()) if name.startswith(".")}

    def _callers(self, path: str, function: str) -> dict[str, Any] | None:
        """How other files call `path`'s own `function`: with grad on (and only evaluating), only
        without grad, every step.
        The same object for the same question: a run's rounds key the answers they compare by it."""
        key = (path, function)
        if key not in self._callers_entries:
            evaluating = self._called_with_grad.get(key)
            found = {} if evaluating is None else {"grad_on": True, **({"evaluating": True} if evaluating else {})}
            if self._call_states.get(key) == {"off"} and ("." not in function or self._method_runs_only_without_grad(function)):
                found["grad_off"] = True  # every call of other files runs it without grad
            if key in self._called_per_step:
                found["per_step"] = True
            if key in self._history_by_callers:
                found["history"] = self._history_by_callers[key]
            if key in self._called_per_batch_without_grad:
                found["per_eval_batch"] = True
            if key in self._applied_tensors:
                found["tensors"] = sorted(self._applied_tensors[key], key=str)
            if key in self._trained_through or ("." in function and function.rpartition(".")[2] in self._trained_methods):
                found["trained"] = True
            if key in self._made_by_callers:
                found["made"] = self._made_by_callers[key]
            if key in self._callables_by_callers:
                found["handed"] = self._callables_by_callers[key]
            if key in self._instances_by_callers:
                found["instances"] = self._instances_by_callers[key]
            self._callers_entries[key] = found or None
        return self._callers_entries[key]

    @cached_property
    def _overrides(self) -> dict[tuple[str, str], list[dict[str, Any]]]:
        """(file, `Class.method`) of the project's classes -> the facts of the methods that subclasses in
        other files define under that name (their `flow` entries), by the subclasses' bases as written."""
        found: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for other, summary in self.summaries.items():
            flow = summary.get("flow") or {}
            for cls, entry in flow.items():
                for base in entry.get("bases", ()) if "kind" in entry else ():
                    where = self.locate(other, base)
                    if where is None or where[0] == other:
                        continue
                    prefix = f"{cls}."
                    for key, facts in flow.items():
                        if key.startswith(prefix):
                            found.setdefault((where[0], f"{where[1]}.{key[len(prefix):]}"), []).append(facts)
        return found

    @cached_property
    def _override_entries(self) -> dict[tuple[str, str], dict[str, Any]]:
        """(file, `Class.method`) -> what the overrides of other files do in it: how one evaluates (the model
        run, in words: `evaluation_run`), and what they return (`returns`, joined) where one returns a value
        with history, with `backwards_return` where every such override backwards the value it returns."""
        found: dict[tuple[str, str], dict[str, Any]] = {}
        for where, overrides in self._overrides.items():
            entry: dict[str, Any] = {}
            run = next((o["evaluation_run"] for o in overrides if o.get("evaluation_run")), None)
            if run:
                entry["evaluation_run"] = run
            returns = [Value.from_json(o["returns"]) if o.get("returns") else Value(history=NO) for o in overrides]
            if any(v.carries for v in returns):
                entry["returns"] = join(returns).to_json()
                if all(o.get("backwards_return") for o, v in zip(overrides, returns) if v.carries):
                    entry["backwards_return"] = True
            if entry:
                found[where] = entry
        return found

    def kept_by_project_callees(self) -> list[Finding]:
        """ML001 across files: a per-step call passes a value with autograd history to a function
        of another file of the project that keeps that argument beyond the call (appends it to a
        module-level list): the value outlives its iteration there."""
        found = []
        for path, summary in self.summaries.items():
            for name, index, row, column, end_row, end_column, arg, suppressed, *rest in summary.get(
                "kept_argument_calls", ()
            ):
                facts = self.flow_of(path, name)
                params = (facts or {}).get("params") or []
                kept = dict((facts or {}).get("keeps") or {})
                # `record(history, loss)`: the callee stores `loss` in the caller's `history`, which
                # outlives the step at this call
                outliving = rest[0] if rest else []
                for param, into in ((facts or {}).get("keeps_in") or {}).items():
                    if into in params and params.index(into) in outliving:
                        kept.setdefault(param, f"the `{into}` it is handed")
                if suppressed or index >= len(params) or params[index] not in kept:
                    continue
                where = os.path.relpath(self.paths_by_module[self.qualify(path, name).rpartition(".")[0]])
                found.append(
                    _finding(
                        "ML001",
                        message=f"`{arg}` is kept beyond its iteration with its autograd graph by "
                        f"`{name.rsplit('.', 1)[-1]}()` ({where})",
                        severity=Severity.WARNING,
                        filename=path,
                        location=Position(row, column),
                        end_location=Position(end_row, end_column),
                        hint=f"`{name.rsplit('.', 1)[-1]}()` keeps its argument `{params[index]}` in "
                        f"`{kept[params[index]]}`: pass `{arg}.detach()` (or `.item()`), or detach it where it is kept",
                    )
                )
        return found

    def locate(self, path: str, name: str) -> tuple[str, str] | None:
        """The other file of the project that defines `name` as written in `path`, and the name
        there (`Meter`, `Meter.update`, `get_reward`): by the file's imports from the project root,
        or, for an absolute import of a sibling module (`import helpers` next to it: a script's
        folder is on `sys.path`), from the file's folder."""
        answers = self._located.get(path)
        if answers is None:
            answers = self._located[path] = {}
        if name not in answers:  # asked for every call of every file, and again for its questions
            answers[name] = self._locate(path, name)
        return answers[name]

    def _locate(self, path: str, name: str, depth: int = 0) -> tuple[str, str] | None:
        parts = self.qualify(path, name).split(".")
        package = self.modules.get(path, "").rpartition(".")[0]
        for cut in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:cut])
            other = self.paths_by_module.get(module)
            if other is None and package:
                other = self.paths_by_module.get(f"{package}.{module}")
            if other is None:
                continue
            rest = ".".join(parts[cut:])
            summary = self.summaries[other]
            imported = summary.get("imports", {})
            if other == path:
                # a name the file neither defines nor imports by name: one of its star imports may
                # bring it (`from ._utils import *`, then `get_module_by_name(...)`)
                return self._star_imported(path, rest, depth)
            if depth < _REEXPORT_DEPTH and rest not in (summary.get("flow") or {}):
                if rest.partition(".")[0] in imported:
                    # a package re-exports it (`from .cross_entropy import cross_entropy` in its
                    # `__init__.py`): the definition is where that import leads
                    found = self._locate(other, rest, depth + 1)
                    if found is not None:
                        return found
                found = self._star_imported(other, rest, depth)
                if found is not None:
                    return found
            return other, rest
        return None

    def _star_imported(self, path: str, name: str, depth: int) -> tuple[str, str] | None:
        """Where a name that `path` neither defines nor imports by name is defined, where one of its star
        imports (`from helpers import *`) brings it: the first module it star-imports that defines it
        (or re-exports it in turn)."""
        summary = self.summaries[path]
        if depth >= _REEXPORT_DEPTH or name.partition(".")[0] in (summary.get("flow") or {}):
            return None
        for star in (key for key in summary.get("imports", {}) if key.startswith("*")):
            found = self._locate(path, f"{star}.{name}", depth + 1)
            if found is not None and found[1] in (self.summaries[found[0]].get("flow") or {}):
                return found
        return None

    def facts_for(self, path: str) -> dict[str, dict[str, Any]]:
        """What the project's other files say about the functions and classes `path` calls or derives
        from, keyed by the question as the file's analysis asks it (analysis/flow/project_facts.py
        reads it; `fact` says what each holds): the facts of the questions its analysis asked, and
        of the methods of the classes it asked about."""
        found: dict[str, dict[str, Any]] = {}
        summary = self.summaries.get(path, {})
        asked = summary.get("asked")
        if asked is None:  # a summary made without the analysis' questions (an editor's buffer): all it names
            asked = [*(name for name, _ in summary.get("calls", ())), *(f"base:{b}" for b in summary.get("bases", ()))]
        else:
            asked = [*asked, *summary.get("asked_for_exports", ())]
        for question in dict.fromkeys(asked):
            entry = self.fact(path, question)
            if entry is not None:
                found[question] = entry
            if entry is None or "kind" not in entry or question.startswith("base:"):
                continue
            where = self.locate(path, question)
            if where is None:
                continue
            # its own methods, then those it inherits from base classes of other files
            for file, cls in [where, *self._project_bases(*where)]:
                prefix = f"{cls}."
                for key in self.summaries[file].get("flow") or {}:
                    asked = f"{question}.{key[len(prefix):]}"
                    if key.startswith(prefix) and asked not in found and (method := self.fact(path, asked)) is not None:
                        found[asked] = method
        return found

    def callers_facts(self, path: str) -> dict[str, dict[str, Any]]:
        """The answers to the questions `path`'s analysis may ask about how other files call its own
        functions and what their subclasses do in its classes' methods (`CALLERS`, `OVERRIDES`):
        they read every file's summary, so the parent hands them to the process that analyses `path`."""
        found = {}
        for where, function in [*self._call_states, *self._called_per_step, *self._called_per_batch_without_grad, *self._applied_tensors]:
            if where == path and (entry := self._callers(where, function)) is not None:
                found[f"{CALLERS}{function}"] = entry
        for question in (self.summaries.get(path) or {}).get("asked", ()):
            # a method that no other file's call shows the class of: trained through by its name
            if question.startswith(CALLERS) and question not in found:
                entry = self._callers(path, question.removeprefix(CALLERS))
                if entry is not None and entry.get("trained"):
                    found[question] = entry
        for (where, method), entry in self._override_entries.items():
            if where == path:
                found[f"{OVERRIDES}{method}"] = entry
        return found

    def fact(self, path: str, question: str) -> dict[str, Any] | None:
        """What the project's other files say about one question of `path`'s analysis (a name as
        written there, `base:` and a name it derives from, a method `Class.method` of a class it
        names), or None: the facts of the definition that can change an answer. A function that says
        nothing counts where its name would otherwise be guessed from (a loss, a model); a class
        counts with its kind and what it holds; a method of a class where it could be taken for a
        store (`update`, `append`). Each answer depends on the question alone, so that an analysis
        may ask as it goes (a run's first phase) and be handed the same as from `facts_for`."""
        if question.startswith(CALLERS):  # how other files call this file's own function
            return self._callers(path, question.removeprefix(CALLERS))
        if question == DIFFERENTIATES:  # whether another file of the project differentiates
            differentiates = any(summary.get("differentiates") for other, summary in self.summaries.items() if other != path)
            return {"differentiates": True} if differentiates else None
        if question.startswith(ASSIGNS):  # whether another file sets an attribute of that name on an object
            name = question.removeprefix(ASSIGNS)
            assigns = any(name in summary.get("object_attributes", ()) for other, summary in self.summaries.items() if other != path)
            return {"assigns": True} if assigns else None
        if question.startswith(OVERRIDES):  # what other files' subclasses do in a method it leaves to them
            return self._override_entries.get((path, question.removeprefix(OVERRIDES)))
        base = question.startswith("base:")
        name = question.removeprefix("base:")
        where = self.locate(path, name)
        if where is None:
            return None
        key = (where, base, name.rpartition(".")[2])  # the same answer wherever it is asked from
        if key not in self._facts:
            self._facts[key] = self._fact(where, base, key[2])
        return self._facts[key]

    def _fact(self, where: tuple[str, str], base: bool, last: str) -> dict[str, Any] | None:
        """(`fact` of the definition `where`, named `last` where it is asked, as a base or not)"""
        flow = self.summaries[where[0]].get("flow") or {}
        entry = flow.get(where[1])
        if entry is None:
            return self._inherited(where, flow, last)
        file = _relative(where[0])
        if base and not ("steps" in entry or entry.get("kind") == "lightning"):
            # a base class matters for the methods it calls per step, or as a LightningModule;
            # otherwise only where its name would be taken for a module's, or not, wrongly
            # or for what its subclasses inherit: the grad mode of its `forward`, no parameters,
            # the attributes its methods compute their returns from
            inherited = {k: entry[k] for k in ("call_grad", "reads_into_returns") if k in entry}
            held = self._parameters(where[0], entry)
            if held is not None:
                inherited["parameters"] = held
            if (entry.get("kind") == "module") != bool(MODULE_CLASS_NAME.search(last)) or inherited:
                return {"kind": entry["kind"], **inherited, "file": file}
            return None
        if "kind" in entry:
            found = {k: v for k, v in entry.items() if k not in ("parameters", "parameter_bases", "bases", "local_bases")}
            found["file"] = file
            runs = self._object_runs(where)
            if runs:
                found["object_runs"] = runs
            held = self._parameters(where[0], entry)
            if held is not None:
                found["parameters"] = held
            return found
        owner = flow.get(where[1].rpartition(".")[0]) if "." in where[1] else None
        if owner is not None and "kind" in owner:  # a method of a class of the project
            if _informative(entry) or _guessed(last) or _stores(last):
                return {**entry, "file": file}
            return None
        if _informative(entry) or _guessed(last) or "leaves_grad" in entry or "trains" in entry:
            # (the grad mode a function leaves switched decides that of the calls after it)
            return {**entry, "file": file}
        return None

    def _inherited(self, where: tuple[str, str], flow: dict[str, Any], last: str) -> dict[str, Any] | None:
        """(`fact` of a method `Class.last` that the class of `where` inherits from a base class of
        another file, with what it keeps through the methods of this class it calls on `self`: a
        base's `forward` calling `self.update`)"""
        cls, _, method = where[1].rpartition(".")
        if not cls or "kind" not in (flow.get(cls) or {}):
            return None
        for base_path, base_name in self._project_bases(where[0], cls):
            facts = (self.summaries[base_path].get("flow") or {}).get(f"{base_name}.{method}")
            if facts is not None:
                facts = _through_own_methods(facts, flow, f"{cls}.")
                return {**facts, "file": _relative(base_path)} if _informative(facts) or _stores(last) else None
        return None

    def _object_runs(self, where: tuple[str, str]) -> dict[str, str]:
        """What calling each method of the class `where` runs with grad on (its summary's `object_runs`),
        with what it inherits from the project's base classes, in its file or in others: a base's method
        that runs a model, where neither the class nor a nearer base defines one of that name."""
        flow = self.summaries[where[0]].get("flow") or {}
        found = dict(flow[where[1]].get("object_runs") or {})
        defined = {key.rpartition(".")[2] for key in flow if key.rpartition(".")[0] == where[1]}
        for base_path, base in self._project_bases(*where):
            base_flow = self.summaries[base_path].get("flow") or {}
            for name, run in ((base_flow.get(base) or {}).get("object_runs") or {}).items():
                if name not in defined:
                    found.setdefault(name, run)
            defined |= {key.rpartition(".")[2] for key in base_flow if key.rpartition(".")[0] == base}
        return found

    def _project_bases(self, path: str, cls: str) -> list[tuple[str, str]]:
        """The base classes (file, name there) of the class `cls` of `path` that the project defines, in
        other files or in its own, nearest first, through their own project bases (a few levels)."""
        found: list[tuple[str, str]] = []
        pending = [(path, cls)]
        while pending and len(found) < _BASE_DEPTH:
            here, name = pending.pop(0)
            flow = self.summaries[here].get("flow") or {}
            entry = flow.get(name) or {}
            for base in entry.get("local_bases", ()):  # a base class of the same file
                if (here, base) not in found and "kind" in (flow.get(base) or {}):
                    found.append((here, base))
                    pending.append((here, base))
            for base in entry.get("bases", ()):
                where = self.locate(here, base)
                if where is not None and where not in found and "kind" in ((self.summaries[where[0]].get("flow") or {}).get(where[1]) or {}):
                    found.append(where)
                    pending.append(where)
        return found

    def defining_file(self, path: str, name: str) -> tuple[str | None, str]:
        """The other file of the project that defines the function `name` as written in `path`, and
        its last name: by the file's imports from the project root, or, for an absolute import of a
        sibling module (`import helpers` next to it: a script's folder is on `sys.path`), from the
        file's folder."""
        module, _, last = self.qualify(path, name).rpartition(".")
        other = self.paths_by_module.get(module)
        if other is None:
            package = self.modules.get(path, "").rpartition(".")[0]
            other = self.paths_by_module.get(f"{package}.{module}" if package else module)
        return (other if other != path else None), last

    def eval_calls_of_project_models(self) -> list[Finding]:
        """ML003 across files: an evaluation region runs, with grad on, a function of another file
        of the project that runs a model (its summary says which call): the model builds a graph
        for a backward that never comes. The fix is the caller's: its region under `no_grad`."""
        found = []
        for path, summary in self.summaries.items():
            for name, row, column, end_row, end_column, where, fix, suppressed in summary.get("eval_calls", ()):
                other, last = self.defining_file(path, name)
                run = self.summaries[other].get("model_runs", {}).get(last) if other is not None else None
                if suppressed or run is None:
                    continue
                found.append(
                    _finding(
                        "ML003",
                        message=f"`{name}(...)` runs a model with autograd enabled in {where}, saving activations "
                        "for a backward that never comes",
                        severity=Severity.WARNING,
                        filename=path,
                        location=Position(row, column),
                        end_location=Position(end_row, end_column),
                        hint=f"{fix} (`{last}` ({os.path.relpath(other)}) calls {run})",
                    )
                )
        return found

    def hooks_registered_per_step(self) -> list[Finding]:
        """ML008 across files: a step calls a function of another file of the project that
        registers a hook on the module it is handed and keeps no handle (its summary says so):
        one more hook on the module every step."""
        found = []
        for path, summary in self.summaries.items():
            for name, row, column, end_row, end_column, where, suppressed in summary.get("step_calls", ()):
                other, last = self.defining_file(path, name)
                entry = self.summaries[other].get("hook_registrations", {}).get(last) if other is not None else None
                if suppressed or entry is None:
                    continue
                method, registered = entry
                found.append(
                    _finding(
                        "ML008",
                        message=f"`{name}(...)` runs on {where} and registers a hook ({registered}) that nothing "
                        "removes, so hooks pile up",
                        severity=Severity.ERROR,
                        filename=path,
                        location=Position(row, column),
                        end_location=Position(end_row, end_column),
                        hint=f"`{last}` calls `{method}` and keeps no handle: call it once, before the loop, or have "
                        "it return the handle and remove it in the same step; every later forward runs all of the "
                        "hooks and what they capture stays alive",
                    )
                )
        return found

    def late_alloc_settings(self) -> list[Finding]:
        """ML010 across files: a helper module's function sets `PYTORCH_CUDA_ALLOC_CONF`
        and another module of the project calls it after it has used CUDA."""
        setters = {
            f"{self.modules[path]}.{func}": (path, entry)
            for path, summary in self.summaries.items()
            for func, entry in summary.get("alloc_setters", {}).items()
        }
        found: dict[str, Finding] = {}
        for caller, summary in self.summaries.items():
            for name, use, row in summary.get("calls_after_cuda", ()):
                target = setters.get(self.qualify(caller, name))
                if target is None or target[0] in found or target[1][5]:
                    continue
                path, (key, line, column, end_line, end_column, _) = target
                found[path] = _finding(
                    "ML010",
                    message=f"`{key}` is set by `{name.rsplit('.', 1)[-1]}()`, which {os.path.relpath(caller)} calls "
                    f"after its first CUDA use (`{use}`, line {row}), so the allocator ignores it",
                    severity=Severity.WARNING,
                    filename=path,
                    location=Position(line, column),
                    end_location=Position(end_line, end_column),
                    hint=f"call it before the first CUDA use in {os.path.relpath(caller)}, or set `{key}` in the "
                    "environment that launches the script",
                )
        return list(found.values())

    def _lightning_cast_cache(self, finding: Finding) -> Finding | None:
        """ML002 on a `training_step`: kept where the installed Lightning and the project's Trainer
        run it under the cache-less autocast, with the release and the Trainer named."""
        from memlint.analysis.regions import lightning_precision as lightning  # LibCST: only for such a finding

        facts = finding.extra["lightning"]
        version = lightning.installed_version(facts.get("package", "lightning"))
        if not lightning.cache_disabled_in(version):
            return None
        message = finding.message.replace(lightning.UNKNOWN_VERSION, lightning.describe(version))
        if facts.get("trainer") == "project":
            trainers = [
                (path, precision, line)
                for path, summary in sorted(self.summaries.items())
                for precision, line in summary.get("trainer_precisions", ())
            ]
            if not trainers:
                return None
            path, precision, line = trainers[0]
            message = message.replace(
                lightning.PROJECT_TRAINER, f'`Trainer(precision="{precision}")` ({os.path.relpath(path)}, line {line})'
            )
        return replace(finding, message=message)

    def flow_of(self, path: str, name: str, member: str = "") -> dict[str, Any] | None:
        """The exported flow facts of `name` (or of its method `member`) as written in `path`: a
        function or class of the project reached through the file's imports; None when it is
        not the project's. A project function with no entry exports nothing (`{}`)."""
        module, _, last = self.qualify(path, name).rpartition(".")
        other = self.paths_by_module.get(module)
        if other is None or other == path:
            return None
        key = f"{last}.{member}" if member else last
        return self.summaries[other].get("flow", {}).get(key, {})

    def _guess_refuted(self, finding: Finding) -> bool:
        """Did ML001 rest on a guess from a name (a loss-named function, a meter) that the other
        file's summary contradicts (it returns no history; its `update` keeps nothing)?"""
        path = finding.filename
        assumed = finding.extra.get("assumed") or []
        if assumed:
            facts = [self.flow_of(path, name) for name in assumed]
            if all(f is not None and _history(f) == "no" for f in facts):
                return True
        meter = finding.extra.get("meter")
        if meter:
            facts = self.flow_of(path, meter, "update")
            params = (facts or {}).get("params") or [""]
            if facts is not None and "keeps" in facts and params[0] not in (facts["keeps"] or ()):
                return True  # `meter.update(loss)`: its `update` keeps nothing of its first argument
        return False

    def _guess_confirmed(self, finding: Finding) -> Finding:
        """Where another file of the project shows what ML001 assumed, say so instead."""
        path = finding.filename
        facts = []
        meter = finding.extra.get("meter")
        if meter:
            found = self.flow_of(path, meter, "update")
            if found and found.get("keeps"):
                where = os.path.relpath(self.paths_by_module[self.qualify(path, meter).rpartition(".")[0]])
                facts.append(f"`{meter.rsplit('.', 1)[-1]}.update` ({where}) keeps it in the meter")
        for name in finding.extra.get("assumed") or []:
            found = self.flow_of(path, name)
            if found and _history(found) == "yes":
                where = os.path.relpath(self.paths_by_module[self.qualify(path, name).rpartition(".")[0]])
                facts.append(f"`{name}()` ({where}) returns a value with autograd history")
        if not facts or len(facts) < len(finding.extra["assumptions"]):
            return finding
        hint = finding.hint or ""
        for text in finding.extra["assumptions"]:
            hint = hint.replace(text, "")
        return replace(finding, hint=hint + "".join(f" ({fact})" for fact in facts), extra={**finding.extra, "assumptions": []})
    def _parameters(self, path: str, entry: dict[str, Any], depth: int = 0) -> str | None:
        """What a module class of `path` can hold (`parameters`, analysis/regions/model_runs.py),
        joined with what its bases in other files hold, followed through their files: "none",
        "plain-arguments" (none where its construction hands only literals), None (it may hold
        parameters, or a base is out of sight)."""
        held = entry.get("parameters")
        for base in entry.get("parameter_bases", ()):
            where = self.locate(path, base) if held is not None and depth < _BASE_DEPTH else None
            flow = (self.summaries[where[0]].get("flow") or {}) if where is not None else {}
            found = flow.get(where[1]) if where is not None else None
            inherited = self._parameters(where[0], found, depth + 1) if where is not None and found else None
            if inherited is None:
                return None
            if inherited != "none":
                held = inherited
        return held

    def _handed_by_callers(self, finding: Finding) -> Finding | None:
        """ML003 on a parameter run as a model by its name alone, or ML012 on a cache keyed by a parameter
        taken for a module by its name alone (`analysis/flow/handed.py`): where a call of the function (or
        construction of the class) in another file hands that parameter a module (for ML003, with grad
        on), the finding rests on that fact and is shown, naming the caller; where every such call hands
        something that is no module, there is no model run and no module kept; otherwise it stays an
        assumption."""
        name, param, position, is_class, in_file = finding.extra["handed"]
        path = finding.filename
        passed: list[tuple[str, str]] = []  # (the calling file, what it hands)
        for other, summary in self.summaries.items():
            if other == path:
                continue
            for callee, grad, handed in summary.get("passes", ()):
                if callee.rpartition(".")[2] != name or self.locate(other, callee) != (path, name):
                    continue
                if grad == "off" and not is_class and finding.code == "ML003":
                    continue  # run without grad: no graph
                kinds = dict((key, kind) for key, kind, *_ in handed)
                passed.append((other, kinds.get(param, kinds.get(position, "unknown"))))
        module = next((other for other, kind in passed if kind == "module"), None)
        if module is not None:
            hint = (finding.hint or "").replace(f" (assumed: {finding.extra['assumptions'][0]})", "")
            hint += f" ({os.path.relpath(module)} hands `{param}` a {'model' if finding.code == 'ML003' else 'module'})"
            return replace(finding, hint=hint, extra={**finding.extra, "assumptions": []})
        if passed and all(kind == "other" for _, kind in passed) and in_file == 0:
            return None
        return finding

    def _handed_element_refuted(self, finding: Finding) -> bool:
        """ML001 on an element of what an object handed to a constructor returns (`loss, stats =
        self.actor(data)`): where every construction of the class in the project's other files (and
        none in its own) hands an object of a project class whose `__call__` (else `forward`) returns
        that element without history, nothing with a graph is kept."""
        name, param, position, is_class, in_file, element = finding.extra["handed_element"]
        path = finding.filename
        if not is_class or in_file != 0:
            return False
        classes = []
        for other, summary in self.summaries.items():
            if other == path:
                continue
            for callee, _, handed in summary.get("passes", ()):
                if callee.rpartition(".")[2] != name or self.locate(other, callee) != (path, name):
                    continue
                made = next((entry[2:] for entry in handed if entry[0] in (param, position)), [])
                if not made:
                    return False  # an object nothing in sight shows the class of
                classes.append((other, made[0]))
        for other, cls in classes:
            where = self.locate(other, cls)
            flow = (self.summaries[where[0]].get("flow") or {}) if where is not None else {}
            facts = (flow.get(f"{where[1]}.__call__") or flow.get(f"{where[1]}.forward") or {}) if where else {}
            elements = (facts.get("returns") or {}).get("e") or []
            if element >= len(elements) or elements[element].get("h") != "no" or elements[element].get("p"):
                return False
        return bool(classes)

    @cached_property
    def _saved_keys(self) -> tuple[set[str], bool]:
        """The keys of the project's checkpoints (`analysis/facts/checkpoints.saved_entries`) that some
        file writes with CPU tensors or no tensor, less those some file writes with tensors that may
        be on a device; and whether some file writes device tensors under a key it computes that no
        call names (then no key is known to be on the CPU alone). A key computed from a parameter of
        the saving function counts as the strings of its default and those the project's calls pass
        by its name (`param_key=["params", "params_ema"]`, or the keys of a dict passed,
        `recording={"epoch": epoch}`). A library the project uses and does not define adds
        the keys its own training code writes from the CPU (the library table)."""
        passed: dict[str, set[str]] = {}
        for summary in self.summaries.values():
            for keyword, strings in summary.get("keyword_strings", {}).items():
                passed.setdefault(keyword, set()).update(strings)
        cpu: set[str] = set()
        device: set[str] = set()
        computed_on_device = False
        for summary in self.summaries.values():
            for key, on_cpu, *computed in summary.get("saved_entries", ()):
                if key != "*":
                    keys = {key}
                else:
                    param, defaults = computed or ("", [])
                    keys = set(defaults) | (passed.get(param, set()) if param else set())
                    if not on_cpu and not keys:  # device tensors under keys nobody names
                        computed_on_device = True
                        continue
                (cpu if on_cpu else device).update(keys)
        imported = {
            target.split(".")[0]
            for summary in self.summaries.values()
            for level, target in summary.get("imports", {}).values()
            if not level and target
        }
        for package, keys in CPU_SAVED_CHECKPOINT_KEYS.items():
            if package in imported and package not in self.paths_by_module:
                cpu |= keys
        return cpu - device, computed_on_device

    @cached_property
    def _saves(self) -> list[tuple[bool, list[str] | None, tuple[str, int]]]:
        """Each `torch.save` of the project (`analysis/facts/checkpoints.saves_host_data`): whether it
        writes nothing on a device, by its own file or, for a parameter it saves that other files'
        calls hand it, by theirs (`hands_host`: every such call hands it data with no tensor); the
        names of the file it writes (None where not shown); and where it is (file, line)."""
        found = []
        for path, summary in self.summaries.items():
            for host, patterns, handed, line in summary.get("host_saves", ()):
                found.append((host or (handed is not None and self._handed_host_data(path, handed)), patterns, (path, line)))
        return found

    def _handed_host_data(self, path: str, handed: list[Any]) -> bool:
        """Does every call in another file of `path`'s function or class `handed` names hand its
        parameter data with no tensor (and is there one)?"""
        name, param, position = handed[:3]
        calls = host = 0
        for other, summary in self.summaries.items():
            if other == path:
                continue
            for callee, _, _ in summary.get("passes", ()):
                calls += callee.rpartition(".")[2] == name and self.locate(other, callee) == (path, name)
            for callee, keys in summary.get("hands_host", ()):
                located = callee.rpartition(".")[2] == name and self.locate(other, callee) == (path, name)
                host += located and (param in keys or position in keys)
        return calls > 0 and host == calls

    @cached_property
    def _saves_host_data_only(self) -> bool:
        """Does the project save checkpoints, every one of them with nothing on a device? Then its own
        checkpoints load onto the CPU."""
        return bool(self._saves) and all(host for host, _, _ in self._saves)

    def _device_saved_file(self, finding: Finding) -> Finding:
        """An ML011 load taken for a checkpoint by its names alone: where the file it reads is one that
        a save of the project writes with tensors that may be on a device (`_writers`), that is the fact
        it rests on, said instead of the assumption."""
        writers = self._writers(finding.extra["files"])
        if not writers or all(host for host, _ in writers):
            return finding
        path, line = next((p, n) for host, (p, n) in writers if not host)
        hint = (finding.hint or "").replace(f" (assumed: {finding.extra['assumptions'][0]})", "")
        hint += f" ({os.path.relpath(path)}, line {line}, saves it with tensors that may be on a device)"
        return replace(finding, hint=hint, extra={**finding.extra, "assumptions": finding.extra["assumptions"][1:]})

    def _loaded_into_model_by_callers(self, finding: Finding) -> Finding:
        """An ML011 load taken for a checkpoint by its names alone, which its function hands back: where
        a call of that function in another file hands its result to `load_state_dict`, that is the
        fact it rests on, said instead of the assumption."""
        path, function = finding.filename, finding.extra["returned_by"]
        for other, summary in sorted(self.summaries.items()):
            if other != path and any(self.locate(other, callee) == (path, function) for callee in summary.get("state_dict_calls", ())):
                hint = (finding.hint or "").replace(f" (assumed: {finding.extra['assumptions'][0]})", "")
                hint += f" ({os.path.relpath(other)} loads what `{function}` returns into a model)"
                return replace(finding, hint=hint, extra={**finding.extra, "assumptions": finding.extra["assumptions"][1:]})
        return finding

    def _loaded_into_model_by_callees(self, finding: Finding) -> Finding:
        """An ML011 load taken for a checkpoint by its names alone, handed to functions of other files
        (`load_state(net, checkpoint)`; `.load_weights`: a method of that name of any class, where its
        file does not show the object's): where one of them puts the parameter it is handed into a
        `load_state_dict` (the summaries' `state_dict_params`), that is the fact it rests on, said
        instead of the assumption."""
        for callee, place, keyword in finding.extra["handed_to"]:
            if callee.startswith("."):  # a method of an object whose class its file does not show: one of that name
                located = [(p, n) for p, s in sorted(self.summaries.items()) for n in s.get("state_dict_params", {}) if n.endswith(callee)]
            else:
                located = [where] if (where := self.locate(finding.filename, callee)) else []
            for path, name in located:
                loaders = self.summaries[path].get("state_dict_params", {})
                # a function or method, or a class whose constructor keeps what a method loads
                if any(i == place or n == keyword for i, n in loaders.get(name) or loaders.get(f"{name}.__init__", ())):
                    hint = (finding.hint or "").replace(f" (assumed: {finding.extra['assumptions'][0]})", "")
                    hint += f" ({os.path.relpath(path)}: `{name}` loads it into a model)"
                    return replace(finding, hint=hint, extra={**finding.extra, "assumptions": finding.extra["assumptions"][1:]})
        return finding

    def _saved_state_keys(self, finding: Finding) -> Finding:
        """An ML011 load taken for a checkpoint by its names alone, read only by keys
        (`ckpt["model"]`): where a save of the project writes one of them with a state dict taken
        as it is (the summaries' `state_keys`: `{"model": model.state_dict()}`), that is the fact it
        rests on, said instead of the assumption."""
        for path, summary in sorted(self.summaries.items()):
            key = next((k for k in finding.extra["keys"] if k in summary.get("state_keys", {})), None)
            if key is not None:
                hint = (finding.hint or "").replace(f" (assumed: {finding.extra['assumptions'][0]})", "")
                line = summary["state_keys"][key]
                hint += f" ({os.path.relpath(path)}, line {line}, saves `{key}` from a state dict that may be on a device)"
                return replace(finding, hint=hint, extra={**finding.extra, "assumptions": []})
        return finding

    def _writers(self, files: list[str]) -> list[tuple[bool, tuple[str, int]]] | None:
        """The project's saves that may write a file of these names (each a name that says more than
        its extension, `model_step_*.pt`), each with whether it writes host data and where it is; None
        where a name links to no save."""
        found: list[tuple[bool, tuple[str, int]]] = []
        for pattern in files:
            stem = pattern.rpartition(".")[0] if "." in pattern else pattern
            if not any(c.isalnum() for c in stem):
                return None  # nothing but an extension is written out: any file of that kind
            writers = [(host, where) for host, patterns, where in self._saves if patterns and any(_may_be_same(pattern, p) for p in patterns)]
            if not writers:
                return None
            found += writers
        return found

    def _reads_host_saved_file(self, finding: Finding) -> bool:
        """Does an ML011 load read a file (`finding.extra["files"]`: the names it may have) that only
        saves writing nothing on a device write (`_writers`)?"""
        writers = self._writers(finding.extra["files"])
        return bool(writers) and all(host for host, _ in writers)

    def _reads_cpu_checkpoint(self, finding: Finding) -> bool:
        """Does an ML011 load read only keys (`torch.load(p)["params_ema"]`) that the project's
        checkpoints hold on the CPU alone (its own `torch.save`s, or the library that writes them)?"""
        cpu, computed_on_device = self._saved_keys
        return not computed_on_device and all(key in cpu for key in finding.extra["keys"])

    def adjust(self, findings: list[Finding], preview: bool = True) -> list[Finding]:
        """The findings as the whole project shows them; without `preview`, less those that still
        rest on a guess about code out of sight (`hidden` says which)."""
        adjusted = []
        for finding in findings:
            if finding.code == "ML001" and finding.extra.get("sources"):
                origin = self.ctx_function_behind(finding.filename, finding.extra["sources"])
                if origin is not None and origin.rsplit(".", 1)[0] != self.modules.get(finding.filename):
                    where = os.path.relpath(self.ctx_functions[origin])
                    finding = replace(
                        finding,
                        severity=Severity.ERROR,
                        message=f"`{finding.extra.get('kept', 'the value')}` is kept beyond its iteration with its "
                        f"autograd graph, whose Function `{origin.rsplit('.', 1)[1]}` ({where}) keeps tensors on "
                        "`ctx` on the device",
                    )
            if finding.code == "ML002" and finding.extra.get("lightning"):
                finding = self._lightning_cast_cache(finding)
                if finding is None:
                    continue
            if finding.code == "ML011" and finding.extra.get("keys") and self._reads_cpu_checkpoint(finding):
                continue
            if finding.code == "ML011" and finding.extra.get("torch_load") and self._saves_host_data_only:
                continue  # a checkpoint of the project's own savers, which write CPU tensors alone
            if finding.code == "ML011" and finding.extra.get("files") and self._reads_host_saved_file(finding):
                continue  # a file that only the project's saves of host data write
            if finding.code == "ML011" and finding.extra.get("assumptions") and finding.extra.get("files"):
                finding = self._device_saved_file(finding)
            if finding.code == "ML011" and finding.extra.get("assumptions") and finding.extra.get("returned_by"):
                finding = self._loaded_into_model_by_callers(finding)
            if finding.code == "ML011" and finding.extra.get("assumptions") and finding.extra.get("handed_to"):
                finding = self._loaded_into_model_by_callees(finding)
            if finding.code == "ML011" and finding.extra.get("assumptions") and finding.extra.get("keys"):
                finding = self._saved_state_keys(finding)
            if finding.code == "ML001" and self._guess_refuted(finding):
                continue
            if finding.code == "ML001" and finding.extra.get("handed_element") and self._handed_element_refuted(finding):
                continue
            if finding.code == "ML001" and finding.extra.get("assumptions"):
                finding = self._guess_confirmed(finding)
            if finding.code in ("ML003", "ML012") and finding.extra.get("handed") and finding.extra.get("assumptions"):
                finding = self._handed_by_callers(finding)
                if finding is None:
                    continue
            if finding.code == "ML003" and finding.extra.get("function") and not finding.extra.get("in_file_calls"):
                by_name = not finding.extra.get("handed_on")
                if self.only_called_without_grad(finding.filename, finding.extra["function"], by_name):
                    continue
            adjusted.append(finding)
        return adjusted if preview else [f for f in adjusted if not hidden(f)]


def _may_be_same(one: str, other: str) -> bool:
    """Can a file name match both patterns (`*` any text)? `model_step_*.pt` and `*_*.*` can;
    `model_step_*.pt` and `train_state_*.pt` cannot. A table, not recursion: a long path in a
    literal must not exhaust the stack."""
    n, m = len(one), len(other)
    # meet[i][j]: one[i:] and other[j:] can match the same text
    meet = [[False] * (m + 1) for _ in range(n + 1)]
    meet[n][m] = True
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            if i < n and one[i] == "*":
                meet[i][j] = meet[i + 1][j] or (j < m and meet[i][j + 1])
            elif j < m and other[j] == "*":
                meet[i][j] = meet[i][j + 1] or (i < n and meet[i + 1][j])
            else:
                meet[i][j] = i < n and j < m and one[i] == other[j] and meet[i + 1][j + 1]
    return meet[0][0]


def hidden(finding: Finding) -> bool:
    """Does the finding rest on a guess about code that neither the project nor the library table
    shows (shown with `--preview` only)?"""
    return bool(finding.extra.get("assumptions"))


def _guessed(name: str) -> bool:
    """Would a definition out of sight be guessed from this name (a loss, a model)?"""
    return named_like_loss(name) or named_like_module(name)


def _stores(method: str) -> bool:
    """Would a call of this method be taken for a store into its receiver where its class is out of
    sight (`meter.update(loss)`, `history.append(loss)`)? Its facts say it keeps nothing, where so."""
    return method == "update" or method in CONTAINER_STORES


def _through_own_methods(facts: dict[str, Any], flow: dict[str, Any], prefix: str) -> dict[str, Any]:
    """An inherited method's facts for a subclass: the arguments it hands on to methods it calls on
    `self` (`hands_self`) are kept where the subclass's own definitions of those methods keep them."""
    keeps = dict(facts.get("keeps") or {})
    grows = set(facts.get("grows") or ())
    for method, handed in (facts.get("hands_self") or {}).items():
        own = flow.get(f"{prefix}{method}") or {}
        params = own.get("params") or []
        for param, at in handed.items():
            inner = params[at] if isinstance(at, int) and at < len(params) else at
            if inner in (own.get("keeps") or {}) and param not in keeps:
                keeps[param] = own["keeps"][inner]
                if inner in (own.get("grows") or ()):
                    grows.add(param)
    if keeps == (facts.get("keeps") or {}):
        return facts
    return {**facts, "keeps": keeps, **({"grows": sorted(grows)} if grows else {})}


def _informative(entry: dict[str, Any]) -> bool:
    """Can a function's facts change an answer about its call (one of a function that is not
    defined anywhere the analysis can see returns nothing with history and keeps nothing)?"""
    returns = entry.get("returns") or {}
    if returns.get("h", "no") != "no" or returns.get("p"):
        return True
    return any(
        entry.get(key)
        for key in (
            "keeps", "keeps_in", "runs", "evals", "grad", "loads", "leaves_grad", "trains", "constant",
            "returns_differentiating", "backwards", "text_items", "closure_returns", "returns_module", "returns_scalars",
            "returns_device", "returns_evaluated", "applies",
        )
    )


def _history(facts: dict[str, Any]) -> str | None:
    """What a function's exported facts say of the history of what it returns."""
    returns = facts.get("returns")
    return returns.get("h") if returns else None


def _finding(code: str, **fields: Any) -> Finding:
    """A finding the index adds across files, named as the rule `code` is in the catalog."""
    return Finding(code=code, name=_NAMES[code], **fields)

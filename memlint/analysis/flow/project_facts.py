"""What the project's other files say about the names this file calls.

A run has two phases. The first analyses every file alone and exports, for each of its functions,
methods and classes, what a caller may ask (`flow.summaries.exported`: what a function returns,
element by element and in terms of the parameters it passes through; which arguments it keeps;
which parameters it runs as a model; the grad mode it declares; whether a class is a module and
the grad mode of its `__call__`). The project index resolves every callee a file names to the
file that defines it and hands the file those facts (`ProjectIndex.facts_for`); the second phase
analyses the file again with them, so that `reward = get_reward(model, batch)` asks `get_reward`'s
definition what it returns instead of guessing from its name, wherever it is defined.

Keys are the callees as this file writes them (`get_reward`, `utils.get_reward`, `Meter`, and a
class's methods as `Meter.update`); the facts are plain JSON, so they travel to worker processes
and into the cache key of the file's findings.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Collection

import libcst as cst

from memlint.analysis.flow.values import NO, Value
from memlint.analysis.syntax.imports import dotted
from memlint.cache import facts_digest
from memlint.analysis.questions import ASSIGNS, CALLERS, DIFFERENTIATES, OVERRIDES, PROJECT, VIEWS, brief


class ProjectFacts:
    def __init__(
        self,
        facts: dict[str, dict[str, Any]] | None = None,
        answers: dict | None = None,
        lookup: Callable[[str], dict[str, Any] | None] | None = None,
    ) -> None:
        self.facts = facts or {}
        # Where the facts are looked up as the analysis asks (a command-line run: `ProjectIndex.fact`
        # of the summaries known so far), instead of handed in beforehand; each name once.
        self.lookup = lookup
        self.looked: set[str] = set()
        # The names this file's analysis asked about where the answer could change a finding, found
        # or not (in the first phase, none is): the project index hands the file the facts of these
        # alone, and a file that asked about nothing the project defines is not analysed again.
        self.asked: set[str] = set()
        # Every answer the analysis was given, asked or not: (view, name) -> the answer in brief. The
        # facts are read here alone, so an analysis handed other facts that give every one of these
        # answers again takes the same path to the same findings (`questions.same_answers`): it need not run.
        self.answers: dict[tuple[str, str], Any] = {} if answers is None else answers

    @cached_property
    def digest(self) -> str:
        """The facts in a few bytes: a key of what an analysis that read them found."""
        self.answers[("digest", "")] = found = facts_digest(self.facts)
        return found

    def _get(self, name: str | None, record: bool, view: str) -> Any:
        if not name:
            return None
        if record:
            self.asked.add(name)
        if self.lookup is not None and name not in self.looked:
            self.looked.add(name)
            entry = self.lookup(name)
            if entry is not None:
                self.facts[name] = entry
        found = VIEWS[view](self.facts.get(name))
        if (view, name) not in self.answers:  # a name's facts are looked up once: so is each view's answer
            self.answers[(view, name)] = brief(found)  # (62% of them asked again on the bench corpus)
        return found

    def function(self, call: cst.Call, record: bool = True) -> dict[str, Any] | None:
        """The facts of the project function (of another file) that `call` calls, as written."""
        return self._get(dotted(call.func), record, "function")

    def trains(self, call: cst.Call) -> bool:
        """Do the facts of the project function that `call` calls say it trains? (Asked of most
        imported calls in loops: the answer alone is kept, and it is the same for most functions.)"""
        return self._get(dotted(call.func), True, "trains")

    def differentiated_arguments(self, call: cst.Call) -> list[cst.BaseExpression]:
        """The arguments of `call` that the project function (of another file) it calls differentiates
        (`backward_step(loss, optimizer)`, whose body runs `loss.backward()`)."""
        facts = self._get(dotted(call.func), True, "backwards")
        return [arg for param in facts["backwards"] if (arg := self.argument(facts, call, param)) is not None] if facts else []

    def constructed(self, value: cst.BaseExpression, record: bool = True) -> dict[str, Any] | None:
        """The facts of the project class (of another file) that `value` constructs (`Meter()`)."""
        if type(value) is not cst.Call:
            return None
        return self._get(dotted(value.func), record, "class")

    def class_named(self, expr: cst.BaseExpression) -> dict[str, Any] | None:
        """The facts of the project class (of another file) that `expr` names (`KnnModule`, handed on uncalled)."""
        return self._get(dotted(expr), True, "class")

    def klass(self, expr: cst.BaseExpression) -> dict[str, Any] | None:
        """The facts of the project class (of another file) that `expr` names as a base class."""
        name = dotted(expr)
        # as a base: what matters is the methods it calls per step (`ProjectIndex.fact`)
        return self._get(f"base:{name}" if name else None, True, "class")

    def constant(self, expr: cst.BaseExpression) -> bool:
        """Does `expr` (`c_f.COLLECT_STATS`) name a constant that another file of the project
        binds at module level to a literal?"""
        return bool((self._get(dotted(expr), True, "entry") or {}).get("constant"))

    def method(self, value: cst.Call, method: str) -> dict[str, Any] | None:
        """The facts of `method` of the project class that `value` constructs; None where the class
        defines no such method (an inherited one is out of sight)."""
        name = dotted(value.func)
        return self._get(f"{name}.{method}" if name else None, True, "entry")

    def method_of_class(self, cls: str, method: str) -> dict[str, Any] | None:
        """The facts of `method` of the project class named `cls` as written (`flair.nn.Model`: the type a
        receiver is annotated with), as it defines or declares it (an abstract method's annotation)."""
        entry = self._get(f"{cls}.{method}", True, "entry")
        return entry if entry is not None and "kind" not in entry and not entry.get("property") else None

    def called_with_grad_elsewhere(self, function: str) -> bool:
        """Does another file of the project call this file's top-level `function` with grad on
        (its in-file callers alone do not decide the grad mode it runs in)?"""
        return self._get(f"{CALLERS}{function}", True, "grad_on")

    def evaluated_elsewhere(self, function: str) -> bool:
        """Does every call of this file's top-level `function` with grad on in another file of the
        project hand it modules in eval mode only, outside any training step (`EVALUATING` calls)?"""
        return self._get(f"{CALLERS}{function}", True, "evaluating")

    def called_only_without_grad_elsewhere(self, function: str) -> bool:
        """Does every call of this file's `function` (top-level, or `Class.method`) in another file of
        the project run without grad (under `torch.no_grad()`, or in a function that itself runs only
        without grad), and does some other file call it? For a method, also: every call of its name
        on any object in the project runs without grad, and no file hands it on uncalled."""
        return self._get(f"{CALLERS}{function}", True, "grad_off")

    def made_elsewhere(self, function: str, param: str, position: int) -> list[str] | None:
        """The functions of this file whose calls made what every call of this file's top-level
        `function` in another file of the project hands `param` (at `position`, or by its name):
        `evaluate(pipe, clip_models=preped)` where `preped = prepare_clip_models()` there. None where
        no other file calls it with arguments, or one such call hands it something else."""
        calls = self._get(f"{CALLERS}{function}", True, "made")
        if not calls:
            return None
        found = []
        for handed in calls:
            made = next((name for key, name in handed if key in (param, position)), None)
            if made is None:
                return None
            found.append(made)
        return sorted(set(found))

    def handed_elsewhere(self, function: str, param: str, position: int) -> list[Value] | None:
        """What calling the callables returns that every call of this file's `function` (top-level, or a
        class: its construction) in another file of the project hands `param` (at `position`, or by its
        name), uncalled, where each such callable is a function or method of that file that does not
        differentiate (`RunningStat(self.batch_energy)`): one `Value` each; [] where no other file calls
        it with arguments; None where one such call hands `param` anything else."""
        found = self._get(f"{CALLERS}{function}", True, "handed")
        if not found:
            return []
        values = []
        for handed in found["handed"]:
            value = next((v for key, v in handed if key in (param, position)), None)
            if value is None:
                return None
            values.append(Value.from_json(value))
        return values if len(values) == found["calls"] else None

    def handed_instance_method(self, function: str, param: str, position: int, method: str) -> dict[str, Any] | None:
        """The facts of `method` (with the class as written, `class`) of the project class whose object a
        call of this file's `function` in another file hands `param` (at `position`, or by its name), where
        that method keeps an argument (`minimize(..., stopping_criterion=MovingAverageCriterion())`, whose
        `__call__` keeps the value it is handed); None otherwise."""
        instances = self._get(f"{CALLERS}{function}", True, "instances") or {}
        methods = instances.get(param) or instances.get(str(position)) or {}
        return methods.get(method)

    def trained_elsewhere(self, function: str) -> bool:
        """Does another file of the project differentiate what a call of this file's `function`
        (top-level, or `Class.method`; a method also by its name, called on an object whose class
        that file does not show) returns: a training forward, whatever it is named?"""
        return self._get(f"{CALLERS}{function}", True, "trained")

    def called_per_step_elsewhere(self, function: str) -> bool:
        """Does another file of the project call this file's `function` (top-level, or `Class.method`)
        on every training step (`ema.update(model)` in its training loop)?"""
        return self._get(f"{CALLERS}{function}", True, "per_step")

    def history_handed_elsewhere(self, function: str) -> dict[str, str]:
        """The positions (as strings, leaving out `self`), keywords, and `*` or `**` for an unpacked
        argument, at which calls of this file's `function` in other files of the project hand a value with
        autograd history on every training step (`self.meter.update(**outputs)`), each with the first
        such call (`trainer.py:115`)."""
        return self._get(f"{CALLERS}{function}", True, "history")

    def differentiated_elsewhere(self) -> bool:
        """Does another file of the project differentiate (a `backward()` or `torch.autograd.grad`): is a
        module this file defines trained there, where its forward's state on `self` keeps graphs?"""
        return self._get(DIFFERENTIATES, True, "differentiates")

    def assigned_elsewhere(self, attribute: str) -> bool:
        """Does another file of the project set an attribute named `attribute` on an object it holds
        (`rnn.hidden = rnn.init_hidden(n)`, `rnn.hidden = rnn.hidden.detach()`)?"""
        return self._get(f"{ASSIGNS}{attribute}", True, "assigns")

    def called_per_eval_batch_elsewhere(self, function: str) -> bool:
        """Does another file of the project call this file's `function` (top-level, or `Class.method`)
        once per batch with grad off (`evaluator.eval_step(batch)` in its loop under `torch.no_grad()`)?"""
        return self._get(f"{CALLERS}{function}", True, "per_eval_batch")

    def tensors_handed_elsewhere(self, function: str) -> list[int | str]:
        """The positions (keywords) of the arguments that some call of this file's `function` in another
        file of the project hands a tensor (`FusedOp.apply(x, self.weight)`: `callers:FusedOp.apply`)."""
        return self._get(f"{CALLERS}{function}", True, "tensors")

    def evaluation_in_overrides(self, cls: str, method: str) -> str | None:
        """Where a subclass in another file of the project overrides `method` of this file's class
        `cls` (one the class calls on `self` but leaves to its subclasses) with an evaluation that
        runs a model with grad on: that run in words (`self.model(...)` (agent.py:503)), else None."""
        entry = self._get(f"{OVERRIDES}{cls}.{method}", True, "entry")
        return entry.get("evaluation_run") if entry else None

    def returned_by_overrides(self, cls: str, method: str) -> tuple[Value, bool] | None:
        """Where subclasses in other files of the project override `method` of this file's class `cls` (one
        the class calls on `self` but leaves to them) and one returns a value with history: what they return
        (joined), and whether each such override backwards the value it returns (a training step returning
        its loss after `loss.backward()`); None otherwise."""
        entry = self._get(f"{OVERRIDES}{cls}.{method}", True, "entry")
        if not entry or "returns" not in entry:
            return None
        return Value.from_json(entry["returns"]), bool(entry.get("backwards_return"))

    @staticmethod
    def answer_list(answers: dict[tuple[str, str], Any], imported: Collection[str] | None) -> list[list[Any]]:
        """`answers` as the file's summary keeps them (JSON): those about a name whose first part the
        file imports (`imported`; None: all), since the project index hands facts of no other name
        (it finds definitions through the file's imports), and those of how other files call it."""
        return [
            [view, name, answer]
            for (view, name), answer in sorted(answers.items())
            if imported is None
            or not name
            or name.removeprefix("base:").partition(".")[0] in imported
            or name.startswith((CALLERS, OVERRIDES, PROJECT))
        ]


    @staticmethod
    def returned(entry: dict[str, Any], element: int | None = None) -> Value:
        """What a call of the function returns (element `element` of a returned tuple)."""
        data = entry.get("returns")
        value = Value.from_json(data) if data else Value(history=NO)
        return value if element is None else value.element(element)

    @staticmethod
    def argument(entry: dict[str, Any], call: cst.Call, param: str) -> cst.BaseExpression | None:
        """The argument of `call` that the function receives as `param` (its exported parameters
        leave out `self`, so a method's call maps as a bound call)."""
        for arg in call.args:
            if arg.keyword is not None and arg.keyword.value == param:
                return arg.value
        params = entry.get("params") or []
        positional = [a for a in call.args if a.keyword is None and not a.star]
        if param in params and params.index(param) < len(positional):
            return positional[params.index(param)].value
        return None


"""The words of the questions a file's analysis asks the project about names other files define:
a name as written (`get_reward`), a base class (`base:Trainer`), or how other files call a
function of the file's own (`callers:validation`), or what the subclasses of other files do in a
method its class leaves to them (`overrides:Agent.eval_step`). Both sides read them: the analysis that asks
(analysis/flow/project_facts.py) and the index that answers (project_index.py); and the views an
answer takes of a name's facts, which a run's next round reads again (`same_answers`)."""

from __future__ import annotations

from typing import Any, Callable

from memlint.cache import facts_digest

# The question a file asks about a function of its own: how other files call it (`callers:validation`).
CALLERS = "callers:"

# The question a base class's file asks about a method it calls on `self` but leaves to its subclasses
# (`overrides:TorchAgent.eval_step`): what the subclasses of other files that define it do in it.
OVERRIDES = "overrides:"

# The questions a file asks about the whole project, not about a name it writes: does some other file
# differentiate (train)? Does some other file set an attribute of that name on an object it holds
# (`rnn.hidden = rnn.init_hidden(n)`: state a module keeps on `self`, set from outside)?
PROJECT = "project:"
DIFFERENTIATES = f"{PROJECT}differentiates"
ASSIGNS = f"{PROJECT}assigns:"

# The grad mode a file's summary records for a call (`calls`) that runs with grad on but hands the
# callee modules in eval mode only, outside any training step: evaluation, whatever the callee is named.
EVALUATING = "eval"

# The part of a file's summary that keeps every answer its analysis was given (`ProjectFacts.answers`):
# a command-line run's next round skips the file where the project's facts would give them all again.
ANSWERS = "answers"


def _function(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    return entry if entry is not None and "kind" not in entry else None


def _class(entry: dict[str, Any] | None) -> dict[str, Any] | None:
    return entry if entry is not None and "kind" in entry else None


def _backwards(entry: dict[str, Any]) -> dict[str, Any] | None:
    """The parameters a function differentiates, with its parameters to map a call's arguments."""
    return {"params": entry.get("params") or [], "backwards": entry["backwards"]} if entry.get("backwards") else None


# How each look-up reads a name's facts: the answer it hands the analysis.
VIEWS: dict[str, Callable[[dict[str, Any] | None], Any]] = {
    "function": _function,
    "class": _class,
    "entry": lambda entry: entry,
    "trains": lambda entry: bool((_function(entry) or {}).get("trains")),
    "backwards": lambda entry: _backwards(_function(entry) or {}),
    "grad_on": lambda entry: bool(entry and entry.get("grad_on")),
    "evaluating": lambda entry: bool(entry and entry.get("evaluating")),
    "grad_off": lambda entry: bool(entry and entry.get("grad_off")),
    "per_step": lambda entry: bool(entry and entry.get("per_step")),
    # the parameters that per-step calls of other files hand values with history, and the first such call
    "history": lambda entry: (entry or {}).get("history") or {},
    "differentiates": lambda entry: bool(entry and entry.get("differentiates")),
    "assigns": lambda entry: bool(entry and entry.get("assigns")),
    "per_eval_batch": lambda entry: bool(entry and entry.get("per_eval_batch")),
    "tensors": lambda entry: (entry or {}).get("tensors") or [],
    "trained": lambda entry: bool(entry and entry.get("trained")),
    "made": lambda entry: (entry or {}).get("made"),
    # the methods that keep an argument of the project classes whose objects calls of other files hand
    # each parameter (`ProjectIndex._instances_by_callers`)
    "instances": lambda entry: (entry or {}).get("instances"),
    # how many calls of other files hand arguments, and the callables those calls hand (`handed_callables`)
    "handed": lambda entry: {"calls": len(entry["made"]), "handed": entry.get("handed", [])} if entry and entry.get("made") else None,
}


def brief(answer: Any) -> Any:
    """An answer as the summary keeps it: facts by their digest, None and booleans as they are."""
    return answer if answer is None or type(answer) is bool else facts_digest({"": answer})


def same_answers(answers: list[list[Any]], facts: dict[str, dict[str, Any]], briefs: dict | None = None) -> bool:
    """Would `facts` give an analysis every answer of `answers` (`ProjectFacts.answer_list`) again?
    `briefs`: the answers in brief so far, by view and facts object (facts that `facts.get` hands
    out again and again, alive while `briefs` is: a run's index answers every file's questions)."""
    entries: dict[str, Any] = {}  # name -> its facts, looked up once: a file keeps 2.4 views of a name on average
    for view, name, answer in answers:
        if view == "digest":
            given = facts_digest(facts)
        elif briefs is None:
            given = brief(VIEWS[view](facts.get(name)))
        else:
            entry = entries[name] if name in entries else entries.setdefault(name, facts.get(name))
            key = (view, id(entry))
            given = briefs[key] if key in briefs else briefs.setdefault(key, brief(VIEWS[view](entry)))
        if given != answer:
            return False
    return True

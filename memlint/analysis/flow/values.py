"""The abstract value that flow facts are stated in.

A `Value` says what the analysis knows of a run-time value without running
it: whether it may carry autograd history (and why), where it lives, what
it is, and, when it is a tuple whose elements differ (`return loss, metrics`),
the same facts for each element. It is plain data: summaries built from it
travel in the project's per-file JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NO, MAYBE, YES = "no", "maybe", "yes"


@dataclass(frozen=True)
class Value:
    history: str = MAYBE  # NO / MAYBE / YES
    reason: str = ""  # why it may carry history (`a module call under grad`, `returns \`metrics["loss"]\``)
    location: str = "unknown"  # "device", "host", "unknown"
    kind: str = "unknown"  # "tensor", "number", "mapping", "sequence", "object", "module", "unknown"
    size: str = "unknown"  # "scalar", "batch", "model", "unknown"
    elements: tuple["Value", ...] = ()  # a tuple's elements, when known one by one
    passes: tuple[str, ...] = ()  # parameters whose history flows into it (pass-through)
    where: str = ""  # the expression and line it was read from, for messages (`metrics["loss"]` (f.py:88))
    notes: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def carries(self) -> bool:
        return self.history != NO

    def element(self, index: int) -> "Value":
        """Element `index` of a tuple value: its own facts when known, else the whole value's."""
        if 0 <= index < len(self.elements):
            return self.elements[index]
        return self

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"h": self.history}
        for key, attr, default in (
            ("r", "reason", ""), ("l", "location", "unknown"), ("k", "kind", "unknown"),
            ("s", "size", "unknown"), ("w", "where", ""),
        ):
            if getattr(self, attr) != default:
                data[key] = " ".join(getattr(self, attr).split())  # code as one line, however it was laid out
        if self.passes:
            data["p"] = list(self.passes)
        if self.elements:
            data["e"] = [e.to_json() for e in self.elements]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Value":
        return cls(
            history=data.get("h", MAYBE),
            reason=data.get("r", ""),
            location=data.get("l", "unknown"),
            kind=data.get("k", "unknown"),
            size=data.get("s", "unknown"),
            where=data.get("w", ""),
            passes=tuple(data.get("p", ())),
            elements=tuple(cls.from_json(e) for e in data.get("e", ())),
        )


def join(values: list[Value]) -> Value:
    """The value that may be any of `values` (the returns of one function)."""
    if not values:
        return Value(history=NO, kind="none")
    if len(values) == 1:
        return values[0]
    order = {NO: 0, MAYBE: 1, YES: 2}
    carrying = [v for v in values if v.carries]
    worst = max(values, key=lambda v: order[v.history])
    # a `return None` beside tuples (`if skipped: return None`) leaves the tuples' elements as they are
    tuples = [v for v in values if v.kind != "none"] or values
    lengths = {len(v.elements) for v in tuples}
    elements: tuple[Value, ...] = ()
    if len(lengths) == 1 and 0 not in lengths:
        elements = tuple(join([v.elements[i] for v in tuples]) for i in range(lengths.pop()))
    first = carrying[0] if carrying else values[0]
    return Value(
        history=worst.history,
        reason=first.reason,
        location=_same([v.location for v in values]),
        kind=_same([v.kind for v in values]),
        size=_same([v.size for v in values]),
        elements=elements,
        passes=tuple(sorted({p for v in values for p in v.passes})),
        where=first.where,
    )


def _same(items: list[str]) -> str:
    return items[0] if len(set(items)) == 1 else "unknown"

"""Answers to the questions of one file's analysis that may ask themselves back, kept once they are sure.

Whether a method runs a model asks whether it is an evaluation region of its own, which asks whether
its callers evaluate, which asks what the method runs: a circle through the call graph. A question
asked again while its answer is being computed reads a provisional answer ("runs none"). What is
computed from that provisional answer holds only while the question stays open: it is kept until the
question is answered and then dropped, so that it is asked again with the answer known. Only what
no open question's provisional answer reached is kept for good, so a file's answers do not depend
on which question the rules ask first.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable, TypeVar

T = TypeVar("T")


class _Frame:
    """A question being answered: the lowest open question (by depth) whose provisional answer it read,
    and the answers computed from this question's own provisional answer (dropped when it is answered)."""

    __slots__ = ("question", "low", "held")

    def __init__(self, question: tuple[int, Hashable], depth: int) -> None:
        self.question = question
        self.low = depth
        self.held: list[tuple[int, Hashable]] = []


class Memo:
    """The questions of one file's analysis being answered, nearest last."""

    def __init__(self) -> None:
        self._frames: list[_Frame] = []
        self._open: dict[tuple[int, Hashable], int] = {}  # question -> the depth of its frame
        self._held: dict[tuple[int, Hashable], tuple[Any, int]] = {}  # answers that rest on an open question (at depth)

    def ask(self, table: dict[Any, T], key: Hashable, provisional: T, compute: Callable[[], T]) -> T:
        """The answer to the question `key` of `table` (a table of one kind of question, where sure
        answers are kept): kept, or computed by `compute`; `provisional` while it is being computed."""
        if key in table:
            return table[key]
        question = (id(table), key)
        depth = self._open.get(question)
        if depth is not None:  # asked back while open: what reads this rests on it
            top = self._frames[-1]
            top.low = min(top.low, depth)
            return provisional
        if question in self._held:  # what rests on an open question rests on it where it is read too
            answer, low = self._held[question]
            if self._frames:
                top = self._frames[-1]
                top.low = min(top.low, low)
            return answer
        depth = len(self._frames)
        frame = _Frame(question, depth)
        self._frames.append(frame)
        self._open[question] = depth
        try:
            answer = compute()
        finally:
            self._frames.pop()
            del self._open[question]
            for held in frame.held:
                self._held.pop(held, None)
        if frame.low < depth:  # it read an open question's provisional answer: held while that is open
            self._frames[frame.low].held.append(question)
            self._held[question] = (answer, frame.low)
            parent = self._frames[-1]
            parent.low = min(parent.low, frame.low)
        else:
            table[key] = answer
        return answer

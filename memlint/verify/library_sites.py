"""Findings whose growth happens in a framework's own loop: the function of the
installed library that the loop calls once per iteration, probed per call.

ML016 (an HF `Trainer` evaluation without `eval_accumulation_steps`) holds no loop
of the user's file: transformers' `evaluation_loop` concatenates each batch's
logits onto the device inside its own `for`, and calls `Trainer.prediction_step`
once per batch. The probe samples memory as each call starts, so the growth
between two calls is what the loop kept of the previous batch. A subclass that
overrides `prediction_step` without calling `super()` is not probed (the site is
then reported as not reached).

The library is never imported by the linter: `bootstrap` wraps the attribute
when the command itself imports the module.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LibrarySite:
    module: str  # imported by the command, e.g. "transformers.trainer"
    qualname: str  # "Class.method" or "function" in that module
    iteration: str  # what one call is, for display

    @property
    def name(self) -> str:
        return f"{self.module}.{self.qualname}"


SITES: dict[str, LibrarySite] = {
    "ML016": LibrarySite("transformers.trainer", "Trainer.prediction_step", "evaluation batch"),
}


def site_for(code: str) -> LibrarySite | None:
    return SITES.get(code)

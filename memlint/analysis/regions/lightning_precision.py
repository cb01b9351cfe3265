"""Does Lightning run `training_step` with autocast's weight cache off?

Lightning's `MixedPrecision.forward_context()` wraps every step hook in
`autocast_context_manager()`, which returns
`torch.autocast(device, dtype, cache_enabled=False)` (a workaround for
pytorch issues 65766/112583, PR 20921): every module call in the step then
makes and saves its own low-precision copy of the weights. Lightning issue
21611; fixed by PR 21616 (merged 2026-04-01), whose `forward_context()`
enters `torch.autocast(device, dtype)` with the cache on.

Which releases, from Lightning's sources (tags and the published wheels):

* 2.5.4 and earlier: `autocast_context_manager()` has no `cache_enabled`.
* 2.5.5, 2.5.6, 2.6.0, 2.6.1, 2.6.4, 2.6.5, 2.6.6: `cache_enabled=False`
  (2.6.2/2.6.3 were never published; 2.6.6 is the newest release checked).
* master after PR 21616: the cache is on; a release after 2.6.6 is taken to have it.

Only the plain `MixedPrecision` plugin does this: the Trainer picks it for
`precision="16-mixed"`/`"bf16-mixed"` (and the legacy `16`, `"16"`, `"bf16"`)
unless the strategy brings its own precision plugin (FSDP, DeepSpeed, XLA).
Fabric's `MixedPrecision` keeps the cache on in every release.

The Trainer may live in another file than the LightningModule; each file's
summary records its Trainers' precisions (`trainer_precisions`) and the
project index decides (`analysis/project.py`). The installed version is read
from package metadata at that point (never by importing Lightning), so a
cached finding follows the environment of each run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import libcst as cst

from memlint.analysis.syntax.expressions import keyword_arg

if TYPE_CHECKING:
    from memlint.analysis.context import FileContext

FIRST_AFFECTED = (2, 5, 5)
LAST_AFFECTED = (2, 6, 6)
UNKNOWN_VERSION = "Lightning 2.6.x"
# `precision=` values (after Lightning's legacy aliases) that select `MixedPrecision`, and its dtype.
MIXED = {"16-mixed": "float16", "bf16-mixed": "bfloat16", "16": "float16", "bf16": "bfloat16"}
_OWN_PRECISION_STRATEGIES = ("fsdp", "deepspeed", "xla")
_PACKAGES = {"lightning": "lightning", "pytorch_lightning": "pytorch-lightning"}
UNKNOWN = "?"  # a precision given as a run-time value


@dataclass(frozen=True)
class TrainerPrecision:
    """A Lightning `Trainer(...)` call: its `precision=` as written ("32-true" when left out, UNKNOWN
    when computed at run time) and whether it runs `training_step` under the cache-less autocast."""

    node: cst.Call
    precision: str
    package: str  # the distribution that provides it: "lightning" or "pytorch-lightning"
    own_plugin: bool  # a strategy or `plugins=` brings another precision plugin

    @property
    def mixed(self) -> bool:
        return not self.own_plugin and self.precision in MIXED


def trainer_precisions(context: "FileContext") -> list[TrainerPrecision]:
    """Every Lightning `Trainer(...)` of the file."""
    found = []
    for call in context.tree.by_type.get(cst.Call, ()):
        name = context.imports.resolve(call.func) or ""
        root = name.split(".")[0]
        if root not in _PACKAGES or not name.endswith(".Trainer"):
            continue
        arg = keyword_arg(call, "precision")
        if arg is not None:
            precision = _literal(arg.value)
        else:  # left out: the default, unless `**config` may hold it
            precision = UNKNOWN if any(a.star == "**" for a in call.args) else "32-true"
        own_plugin = keyword_arg(call, "plugins") is not None or _own_precision_strategy(context, call)
        found.append(TrainerPrecision(call, precision, _PACKAGES[root], own_plugin))
    return found


def package_of(context: "FileContext") -> str:
    """The Lightning distribution a file imports (`pytorch_lightning` or `lightning`)."""
    roots = {name.split(".")[0] for name in context.imports.aliases.values()}
    return "pytorch-lightning" if "pytorch_lightning" in roots and "lightning" not in roots else "lightning"


def _own_precision_strategy(context: "FileContext", call: cst.Call) -> bool:
    arg = keyword_arg(call, "strategy")
    if arg is None:
        return False
    value = arg.value
    if isinstance(value, cst.Call):
        value = value.func
    text = (_literal(arg.value) if isinstance(arg.value, cst.SimpleString) else context.imports.resolve(value) or "")
    return any(kind in text.lower() for kind in _OWN_PRECISION_STRATEGIES)


def _literal(expr: cst.BaseExpression) -> str:
    if isinstance(expr, cst.SimpleString):
        return expr.evaluated_value if isinstance(expr.evaluated_value, str) else UNKNOWN
    if isinstance(expr, cst.Integer):
        return expr.value
    return UNKNOWN


def dtype_of(precision: str) -> str | None:
    """`torch.<dtype>` name the precision's autocast uses."""
    return MIXED.get(precision)


@lru_cache(maxsize=None)
def installed_version(package: str) -> tuple[int, ...] | None:
    """The installed release of `package` from its metadata (Lightning is never imported), or None."""
    from importlib import metadata  # here: most runs never ask, and its import costs as much as linting 3 files

    try:
        text = metadata.version(package)
    except (metadata.PackageNotFoundError, ValueError):
        return None
    match = re.match(r"(\d+)\.(\d+)(?:\.(\d+))?", text)
    return tuple(int(group or 0) for group in match.groups()) if match else None


def cache_disabled_in(version: tuple[int, ...] | None) -> bool:
    """Does this Lightning release run the steps with the cast cache off? (True when unknown.)"""
    return version is None or FIRST_AFFECTED <= version <= LAST_AFFECTED


def describe(version: tuple[int, ...] | None) -> str:
    return UNKNOWN_VERSION if version is None else "Lightning " + ".".join(map(str, version))


# Where a finding's Trainer is in another file: the project index names it (analysis/project.py).
PROJECT_TRAINER = "a mixed-precision `Trainer` of the project"

"""The rule registry: every rule class, by code and by name."""

from __future__ import annotations

from memlint.rules.base import FileProblem, Rule
from memlint.rules.ml001_retained_graph import RetainedGraph
from memlint.rules.ml002_autocast_cache_disabled import AutocastCacheDisabled
from memlint.rules.ml003_eval_without_no_grad import EvalWithoutNoGrad
from memlint.rules.ml004_empty_cache_per_step import EmptyCachePerStep
from memlint.rules.ml005_eval_outputs_on_device import EvalOutputsOnDevice
from memlint.rules.ml006_carried_state_graph import CarriedStateGraph
from memlint.rules.ml007_ctx_tensor_attribute import CtxTensorAttribute
from memlint.rules.ml008_hook_in_loop import HookInLoop
from memlint.rules.ml009_anomaly_detection_enabled import AnomalyDetectionEnabled
from memlint.rules.ml010_alloc_conf_too_late import AllocConfTooLate
from memlint.rules.ml011_load_without_map_location import LoadWithoutMapLocation
from memlint.rules.ml012_cached_tensor_function import CachedTensorFunction
from memlint.rules.ml013_checkpoint_reentrant import CheckpointReentrant
from memlint.rules.ml014_zero_grad_in_accumulation import ZeroGradInAccumulation
from memlint.rules.ml015_gradscaler_with_bf16 import GradScalerWithBf16
from memlint.rules.ml016_hf_eval_predictions_on_device import HfEvalPredictionsOnDevice
from memlint.rules.ml017_oom_retry_in_except import OomRetryInExcept
from memlint.rules.ml018_hf_use_cache_in_training import HfUseCacheInTraining
from memlint.rules.ml019_frozen_model_with_grad import FrozenModelWithGrad

ALL_RULES: tuple[type[Rule], ...] = (
    RetainedGraph,
    AutocastCacheDisabled,
    EvalWithoutNoGrad,
    EmptyCachePerStep,
    EvalOutputsOnDevice,
    CarriedStateGraph,
    CtxTensorAttribute,
    HookInLoop,
    AnomalyDetectionEnabled,
    AllocConfTooLate,
    LoadWithoutMapLocation,
    CachedTensorFunction,
    CheckpointReentrant,
    ZeroGradInAccumulation,
    GradScalerWithBf16,
    HfEvalPredictionsOnDevice,
    OomRetryInExcept,
    HfUseCacheInTraining,
    FrozenModelWithGrad,
)
BY_CODE: dict[str, type[Rule]] = {r.code: r for r in ALL_RULES}
BY_NAME: dict[str, type[Rule]] = {r.name: r for r in ALL_RULES}

# Not rule classes: reported by the engine when a file does not parse, or cannot
# be read or decoded at all (like ruff's E999/E902: a finding, exit 1, the rest linted).
SYNTAX_ERROR = ("ML000", "syntax-error")
UNREADABLE = ("ML900", "unreadable-file")
FILE_PROBLEMS = (
    FileProblem(
        *SYNTAX_ERROR,
        summary="A file does not parse as Python",
        what="Reports a file that Python cannot parse.",
        why="memlint (and Python) cannot analyse a file that does not parse, so none of the other rules ran on it.",
        use_instead="Fix the syntax error; memlint then checks the file like any other.",
    ),
    FileProblem(
        *UNREADABLE,
        summary="A file cannot be read or decoded",
        what=(
            "Reports a file that cannot be read (permissions, a file that vanished) or decoded (bytes that are not "
            "UTF-8 without a PEP 263 coding cookie that says otherwise, an unknown encoding, a notebook that is "
            "not valid JSON). The other files are still linted, and the run exits 1, as for any finding."
        ),
        why="None of the other rules ran on this file, so its leaks (if any) are not reported.",
        use_instead="Make the file readable, save it as UTF-8 (or declare its encoding), or exclude it.",
    ),
)
FILE_CODES = {p.code for p in FILE_PROBLEMS}

def documentation(code: str) -> str | None:
    """What `memlint explain` prints for a rule (ML000's and ML900's too); None for an unknown code."""
    rule = BY_CODE.get(code) or lookup_file_problem(code)
    return rule.documentation() if rule else None


def lookup(selector: str) -> type[Rule] | None:
    return BY_CODE.get(selector.upper()) or BY_NAME.get(selector.lower())


def lookup_file_problem(selector: str) -> FileProblem | None:
    return next((p for p in FILE_PROBLEMS if selector.upper() == p.code or selector.lower() == p.name), None)

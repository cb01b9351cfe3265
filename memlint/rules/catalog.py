"""Every rule's code and name, and where its class lives, without importing it.

Choosing rules (config.py) needs only codes and names; the classes import
LibCST and the analyses, which a run whose files all hit the cache never
needs (memlint/rules/__init__.py imports them on first use).
tests/test_rules_catalog.py checks this table against the classes.
"""

from __future__ import annotations

# (code, name, module under memlint/rules/, class), in the order rules are listed and run.
RULES: tuple[tuple[str, str, str, str], ...] = (
    ("ML001", "retained-graph", "ml001_retained_graph", "RetainedGraph"),
    ("ML002", "autocast-cache-disabled", "ml002_autocast_cache_disabled", "AutocastCacheDisabled"),
    ("ML003", "eval-without-no-grad", "ml003_eval_without_no_grad", "EvalWithoutNoGrad"),
    ("ML004", "empty-cache-per-step", "ml004_empty_cache_per_step", "EmptyCachePerStep"),
    ("ML005", "eval-outputs-on-device", "ml005_eval_outputs_on_device", "EvalOutputsOnDevice"),
    ("ML006", "carried-state-graph", "ml006_carried_state_graph", "CarriedStateGraph"),
    ("ML007", "ctx-tensor-attribute", "ml007_ctx_tensor_attribute", "CtxTensorAttribute"),
    ("ML008", "hook-in-loop", "ml008_hook_in_loop", "HookInLoop"),
    ("ML009", "anomaly-detection-enabled", "ml009_anomaly_detection_enabled", "AnomalyDetectionEnabled"),
    ("ML010", "alloc-conf-too-late", "ml010_alloc_conf_too_late", "AllocConfTooLate"),
    ("ML011", "load-without-map-location", "ml011_load_without_map_location", "LoadWithoutMapLocation"),
    ("ML012", "cached-tensor-function", "ml012_cached_tensor_function", "CachedTensorFunction"),
    ("ML013", "checkpoint-reentrant", "ml013_checkpoint_reentrant", "CheckpointReentrant"),
    ("ML014", "zero-grad-in-accumulation", "ml014_zero_grad_in_accumulation", "ZeroGradInAccumulation"),
    ("ML015", "gradscaler-with-bf16", "ml015_gradscaler_with_bf16", "GradScalerWithBf16"),
    ("ML016", "hf-eval-predictions-on-device", "ml016_hf_eval_predictions_on_device", "HfEvalPredictionsOnDevice"),
    ("ML017", "oom-retry-in-except", "ml017_oom_retry_in_except", "OomRetryInExcept"),
    ("ML018", "hf-use-cache-in-training", "ml018_hf_use_cache_in_training", "HfUseCacheInTraining"),
    ("ML019", "frozen-model-with-grad", "ml019_frozen_model_with_grad", "FrozenModelWithGrad"),
    ("ML020", "metric-never-reset", "ml020_metric_never_reset", "MetricNeverReset"),
)
RULE_CODES: tuple[str, ...] = tuple(code for code, *_ in RULES)

# Not rule classes: reported by the engine when a file does not parse, or cannot
# be read or decoded at all (like ruff's E999/E902: a finding, exit 1, the rest linted).
SYNTAX_ERROR = ("ML000", "syntax-error")
UNREADABLE = ("ML900", "unreadable-file")
FILE_CODES = {SYNTAX_ERROR[0], UNREADABLE[0]}
# About the suppression comments themselves (ruff's RUF100): checked by the engine after the
# rules, not a rule class. Off unless selected (by code, name, `ALL` or a prefix), as in ruff.
UNUSED_NOQA = ("ML100", "unused-noqa")
OPT_IN_CODES = {UNUSED_NOQA[0]}


def rule_code(selector: str) -> str | None:
    """The code of the rule `selector` names (by code or name), None if none."""
    return next((code for code, name, *_ in RULES if selector.upper() == code or selector.lower() == name), None)


def file_problem_code(selector: str) -> str | None:
    """ML000, ML900 or ML100 when `selector` names them (by code or name)."""
    problems = (SYNTAX_ERROR, UNREADABLE, UNUSED_NOQA)
    return next((c for c, n in problems if selector.upper() == c or selector.lower() == n), None)

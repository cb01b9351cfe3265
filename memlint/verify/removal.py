"""Take the slow call out for the timing run of `--compare-fix` (ML004, ML009).

ML004's fix is display-only (removing `empty_cache()` is a judgement call),
and a fix can be refused; to time the loop without the slow call, verify
edits the in-memory source itself (never the file on disk), with LibCST, for
each ML004/ML009 finding that memlint's fixes leave:

* `torch.cuda.empty_cache()`               -> `None`
* `set_detect_anomaly(True)`               -> `set_detect_anomaly(False)`
* `with torch.autograd.detect_anomaly():`  -> `with contextlib.nullcontext():`
  (spelled `__import__("contextlib").nullcontext()`: no import line added)
* `Trainer(..., detect_anomaly=True)`      -> `detect_anomaly=False`

Only expressions change, never the number of lines or loops.
"""

from __future__ import annotations

import libcst as cst

from memlint.engine import lint_source
from memlint.rules.ml009_anomaly_detection_enabled import DETECT_ANOMALY, SET_DETECT_ANOMALY
from memlint.verify import targets

SPEED_CODES = targets.SPEED_CODES
_NULLCONTEXT = 'contextlib.nullcontext()'


def _set_false(call: cst.Call, keyword: str | None) -> cst.Call | None:
    """`call` with `keyword=` (None: the first positional argument, or `mode=`) set to False."""
    args = list(call.args)
    for index, arg in enumerate(args):
        name = arg.keyword.value if arg.keyword is not None else None
        if (keyword is None and ((name is None and not arg.star) or name == "mode")) or (keyword and name == keyword):
            args[index] = arg.with_changes(value=cst.Name("False"))
            return call.with_changes(args=args)
    return None


def _short(parsed: targets.Parsed, call: cst.Call) -> str:
    text = parsed.module.code_for_node(call)
    return text if len(text) <= 60 and "\n" not in text else parsed.module.code_for_node(call.func) + "(...)"


def _replacement(parsed: targets.Parsed, code: str, call: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    before = _short(parsed, call)
    if code == "ML004":
        return cst.Name("None"), f"`{before}` -> `None`"
    qualified = parsed.model.imports.resolve(call.func) or ""
    if qualified in DETECT_ANOMALY:
        new = cst.parse_expression('__import__("contextlib").nullcontext()')
        return new, f"`{before}` -> `{_NULLCONTEXT}`"
    new = _set_false(call, None if qualified in SET_DETECT_ANOMALY else "detect_anomaly")
    if new is None:
        return None
    if before.endswith("(...)"):
        return new, f"`{before}`: `{'detect_anomaly' if qualified not in SET_DETECT_ANOMALY else 'mode'}=False`"
    return new, f"`{before}` -> `{parsed.module.code_for_node(new)}`"


class _Replace(cst.CSTTransformer):
    def __init__(self, replacements: dict[int, cst.BaseExpression]) -> None:
        super().__init__()
        self.replacements = replacements

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        new = self.replacements.get(id(original))
        if new is None:
            return updated
        return new.with_changes(lpar=updated.lpar, rpar=updated.rpar) if hasattr(new, "lpar") else new


def remove_slow_calls(text: str, path: str) -> tuple[str, dict[tuple[str, str], str]]:
    """`text` without the slow call of each ML004/ML009 finding in it; and,
    for each finding removed, (code, message) -> what was changed, in words."""
    findings, _ = lint_source(text, path, list(SPEED_CODES))
    findings = [f for f in findings if f.code in SPEED_CODES]
    if not findings:
        return text, {}
    try:
        parsed = targets.parse(text, path)
    except Exception:  # noqa: BLE001 - nothing to remove in what does not parse
        return text, {}
    replacements: dict[int, cst.BaseExpression] = {}
    done: dict[tuple[str, str], str] = {}
    for finding in findings:
        node = targets._node_at(parsed, finding)
        if not isinstance(node, cst.Call):
            continue
        change = _replacement(parsed, finding.code, node)
        if change is None:
            continue
        replacements[id(node)] = change[0]
        done.setdefault((finding.code, finding.message), change[1])
    if not replacements:
        return text, {}
    new = parsed.module.visit(_Replace(replacements)).code
    if new.count("\n") != text.count("\n"):  # pragma: no cover - expressions only
        return text, {}
    return new, done
